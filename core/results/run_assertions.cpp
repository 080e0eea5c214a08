// Assertion checks before and after a run.
#include "results/run_assertions.hpp"

#include "results/assertion.hpp"
#include "kernel/job/metrics_writer.hpp"
#include "kernel/text/suggest.hpp"

#include <fmt/format.h>
#include <fnmatch.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <sstream>

namespace featurelab {

using nlohmann::json;

std::string unquote(const std::string& v) {
  return v.size() >= 2 && v.front() == '"' && v.back() == '"' ? v.substr(1, v.size() - 2) : v;
}

std::vector<std::pair<std::string, std::string>> parse_where(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::string item;
  std::istringstream in(text);
  while (in >> item) {
    std::istringstream parts(item);
    std::string piece;
    while (std::getline(parts, piece, ',')) {
      if (piece.empty()) continue;
      const auto eq = piece.find('=');
      if (eq == std::string::npos || eq == 0) throw Error("where: expected key=value, got '" + piece + "'");
      out.emplace_back(piece.substr(0, eq), unquote(piece.substr(eq + 1)));
    }
  }
  return out;
}

bool where_matches(const std::string& alternatives, const std::string& value) {
  std::istringstream in(alternatives);
  std::string one;
  while (std::getline(in, one, '|')) {
    if (one == value) return true;
  }
  return false;
}

namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

// Where an assertion is evaluated: its own points and `at`, the value at step 0 of each
// metric (initialisation), or a control's points or step; `negate` asks that the expectation fail.
struct Mode {
  Pairs control;        // keys changed on every checked point; `step` replaces `at`
  bool init = false;    // each metric at step 0 (unless its selector names a step)
  bool negate = false;  // the expectation must NOT hold (a control)
};

// An outcome and the step it was read at (under at = "every", the step that decided it).
struct StepOutcome {
  Assertion::Outcome outcome;
  std::string step;
};

struct Evaluation {
  bool holds = true;   // the mode's requirement held at every selected point
  bool any_checked = false;
  json checks = json::array();
  std::vector<std::string> failed;  // each comparison that went the wrong way, with its values
  std::string missing;
};

// The finished jobs of a run, indexed by sweep point and seed.
class JobTable {
 public:
  explicit JobTable(const std::vector<JobRecord>& jobs) : jobs_(jobs) {
    for (const auto& j : jobs) {
      auto& a = points_[j.spec.point];
      if (a.empty()) {
        for (const auto& [k, v] : j.spec.assignments) a.emplace_back(k, unquote(v));
      }
      if (std::find(seeds_.begin(), seeds_.end(), j.spec.seed) == seeds_.end()) seeds_.push_back(j.spec.seed);
    }
  }

  // The assertion at every point its `where` selects, in the mode's reading (below: PointCheck).
  Evaluation evaluate(const AssertSpec& a, const Assertion& parsed, const Mode& mode) const;

  const std::map<std::size_t, Pairs>& points() const { return points_; }
  const std::vector<std::int64_t>& seeds() const { return seeds_; }

  const JobRecord* find_job(const Pairs& want, std::int64_t seed) const {
    for (const auto& [index, assignments] : points_) {
      if (assignments != want) continue;
      for (const auto& j : jobs_) {
        if (j.spec.point == index && j.spec.seed == seed) return &j;
      }
    }
    return nullptr;
  }

 private:
  const std::vector<JobRecord>& jobs_;
  std::map<std::size_t, Pairs> points_;  // point index -> its assignments (unquoted)
  std::vector<std::int64_t> seeds_;      // in order of appearance
};

// One selected point of an assertion: its values read per seed (with selectors and model selection), over
// the steps `at` names, and the verdict over its seeds (or their mean) added to the evaluation.
class PointCheck {
 public:
  PointCheck(const JobTable& table, const AssertSpec& a, const Assertion& parsed, const Mode& mode, const Pairs& point,
             Evaluation& e)
      : table_(table), a_(a), parsed_(parsed), mode_(mode), e_(e), base_(point), base_at_(mode.init ? "init" : a.at) {
    // A control changes keys of the point, or (step) the step read.
    for (const auto& [k, v] : mode.control) {
      if (k == "step") {
        base_at_ = v;
        continue;
      }
      for (auto& [pk, pv] : base_) {
        if (pk == k) pv = v;
      }
    }
    for (const auto& [k, v] : base_) label_ += (label_.empty() ? "" : " ") + k + "=" + v;
  }

  // The mean over the seeds must pass.
  void check_mean() {
    const auto& seeds = table_.seeds();
    picked_.clear();
    const auto k = over_steps(seeds.front(), [&] {
      return parsed_.evaluate([&](const std::string& m, const Selector& sel) {
        double sum = 0;
        for (auto seed : seeds) sum += value_for(seed, m, sel);
        return sum / static_cast<double>(seeds.size());
      });
    });
    const auto& o = k.outcome;
    json check{{"point", label_}, {"lhs", json_number(o.lhs)}, {"rhs", json_number(o.rhs)}, {"holds", o.holds}};
    if (base_at_ == "every") check["step"] = k.step;
    if (!picked_.empty()) check["selected"] = picked_;
    e_.checks.push_back(check);
    e_.holds &= passes(o);
    if (!passes(o)) e_.failed.push_back(failure(who("mean over " + std::to_string(seeds.size()) + " seed(s)", k), o));
  }

  // Every seed (over = every-seed), a share of them ("80%"), or one (any) must pass.
  void check_seeds() {
    const auto& seeds = table_.seeds();
    int passed = 0;
    std::vector<std::string> point_failed;
    for (auto seed : seeds) {
      picked_.clear();
      const auto k = over_steps(seed, [&] {
        return parsed_.evaluate([&](const std::string& m, const Selector& sel) { return value_for(seed, m, sel); });
      });
      const auto& o = k.outcome;
      passed += passes(o);
      json check{{"point", label_}, {"seed", seed}, {"lhs", json_number(o.lhs)}, {"rhs", json_number(o.rhs)},
                 {"holds", o.holds}};
      if (base_at_ == "every") check["step"] = k.step;
      if (!picked_.empty()) check["selected"] = picked_;
      e_.checks.push_back(check);
      if (!passes(o)) point_failed.push_back(failure(who("seed " + std::to_string(seed), k), o));
    }
    // "80%": at least that share of the seeds, rounded up (4 of 5; 1 of 1).
    const auto share = seed_share(a_.over);
    const int count = static_cast<int>(seeds.size());
    const int needed = a_.over == "any" ? 1 : share ? static_cast<int>(std::ceil(*share * count - 1e-9)) : count;
    const bool point_passes = passed >= needed;
    e_.holds &= point_passes;
    // Under over = "any" a point with one good seed passes: its other seeds are no evidence.
    if (!point_passes) {
      if (share) {
        e_.failed.push_back((label_.empty() ? "" : "[" + label_ + "] ") + std::to_string(passed) + " of " +
                            std::to_string(count) + " seed(s) hold it, " + a_.over + " needs " + std::to_string(needed));
      }
      e_.failed.insert(e_.failed.end(), point_failed.begin(), point_failed.end());
    }
  }

 private:
  std::string failure(const std::string& who, const Assertion::Outcome& o) const {
    return (label_.empty() ? "" : "[" + label_ + "] ") + who + ": " + fmt::format("{:.6g}", o.lhs) + " " + parsed_.op() +
           " " + fmt::format("{:.6g}", o.rhs) + (mode_.negate ? " holds" : " is false");
  }

  // A missing value fails either way: a control is never passed by an absent metric.
  bool passes(const Assertion::Outcome& o) const {
    if (std::isnan(o.lhs) || std::isnan(o.rhs)) return false;
    return o.holds != mode_.negate;
  }

  std::string who(const std::string& subject, const StepOutcome& k) const {
    return base_at_ == "every" ? subject + " at step " + k.step : subject;
  }

  // A metric's value in a job at a step ("final", "init", or a number); NaN with e.missing set if absent.
  double read(const JobRecord* job, const std::string& metric, const std::string& at) {
    if (!job || !job->ok()) {
      e_.missing = "no finished job for " + metric;
      return std::nan("");
    }
    auto it = job->history.find(metric);
    if (it == job->history.end() || it->second.empty()) {
      e_.missing = metric + " was not recorded";
      return std::nan("");
    }
    if (at == "final") return it->second.back().second;
    // Initialisation: the value at step 0, if the metric has one there and later (a ratio to
    // a bound that is 0 at t = 0, first recorded at step 1, has no initial value to compare).
    if (at == "init") {
      if (it->second.size() > 1 && it->second.front().first == 0) return it->second.front().second;
      e_.missing = it->second.front().first != 0 ? metric + " has no value at step 0"
                                                 : metric + " is recorded at step 0 only (nothing trained after it)";
      return std::nan("");
    }
    for (const auto& [s, v] : it->second) {
      if (std::to_string(s) == at) return v;
    }
    e_.missing = metric + " has no value at step " + at;
    return std::nan("");
  }

  // A metric at one seed, read at the point the selector names ([key=value] changes keys, [step=N] the
  // step, [key=argmax(M)] selects a model) and at step_at_ otherwise.
  double value_for(std::int64_t seed, const std::string& metric, const Selector& sel) {
    Pairs target = base_;
    std::string at = step_at_;
    std::vector<std::pair<std::string, ArgmaxSelection>> choose;
    for (const auto& [k, v] : sel) {
      if (auto selection = parse_argmax(v)) {
        choose.emplace_back(k, *selection);
        continue;
      }
      if (k == "step") {
        at = v;
        continue;
      }
      for (auto& [pk, pv] : target) {
        if (pk == k) pv = v;
      }
    }
    if (!choose.empty()) return selected_value(seed, metric, sel, target, at, choose);
    const JobRecord* job = table_.find_job(target, seed);
    if (!job || !job->ok()) {
      e_.missing = "no finished job for " + metric + " at seed " + std::to_string(seed);
      return std::nan("");
    }
    return read(job, metric, at);
  }

  // Model selection: the candidate points are the target with the chosen keys free (each within its
  // candidates); the candidate steps `at`, or every recorded step of the criterion if step is chosen too.
  // The first maximum of the criterion wins (sweep order, then step order), as DomainBed's argmax.
  double selected_value(std::int64_t seed, const std::string& metric, const Selector& sel, const Pairs& target,
                        const std::string& at, const std::vector<std::pair<std::string, ArgmaxSelection>>& choose) {
    const std::string& criterion = choose.front().second.metric;
    const ArgmaxSelection* step_choice = nullptr;
    for (const auto& [k, c] : choose) {
      if (k == "step") step_choice = &c;
    }
    auto allowed = [](const ArgmaxSelection& c, const std::string& value) {
      return c.candidates.empty() || std::find(c.candidates.begin(), c.candidates.end(), value) != c.candidates.end();
    };
    const std::string missing_before = e_.missing;  // a candidate without the criterion is skipped, not missing
    double best = -std::numeric_limits<double>::infinity();
    const JobRecord* best_job = nullptr;
    std::string best_at, best_label;
    for (const auto& entry : table_.points()) {
      const Pairs& other = entry.second;
      bool candidate = other.size() == target.size();
      std::string free_label;
      for (std::size_t i = 0; candidate && i < other.size(); ++i) {
        // Named members, not a structured binding: C++17 lambdas cannot capture those (Clang refuses).
        const std::string& pk = other[i].first;
        const std::string& pv = other[i].second;
        const auto chosen = std::find_if(choose.begin(), choose.end(), [&](const auto& c) { return c.first == pk; });
        if (chosen == choose.end()) {
          candidate = pv == target[i].second;
        } else {
          candidate = allowed(chosen->second, pv);
          free_label += (free_label.empty() ? "" : " ") + pk + "=" + pv;
        }
      }
      if (!candidate) continue;
      const JobRecord* job = table_.find_job(other, seed);
      if (!job || !job->ok()) continue;
      std::vector<std::string> steps{at};
      if (step_choice) {
        steps.clear();
        const auto it = job->history.find(criterion);
        if (it == job->history.end()) continue;
        // The checkpoints up to the step being evaluated: all of them at `final`, none after a numbered `at`
        // or a control's step, only step 0 at initialisation (where every arm is the untrained network).
        const bool capped = at != "final";
        const std::int64_t cap = at == "init" ? 0 : capped ? std::stoll(at) : 0;
        for (const auto& [s, v] : it->second) {
          if (capped && s > cap) break;
          if (allowed(*step_choice, std::to_string(s))) steps.push_back(std::to_string(s));
        }
      }
      for (const auto& s : steps) {
        const double score = read(job, criterion, s);
        if (!std::isnan(score) && score > best) {
          best = score;
          best_job = job;
          best_at = s;
          best_label = free_label;
        }
      }
    }
    e_.missing = missing_before;
    if (!best_job) {
      e_.missing = "no candidate of " + selector_text(sel) + " recorded " + criterion + " at seed " + std::to_string(seed);
      return std::nan("");
    }
    picked_.insert(best_label + (step_choice ? std::string(best_label.empty() ? "" : " ") + "step=" + best_at : ""));
    return read(best_job, metric, best_at);
  }

  // at = "every": the expectation at each recorded step but step 0 ("for all t ≥ 1"), the steps
  // being those of the first metric it reads; it holds if it holds at every one of
  // them, and a control passes if it fails at one. `one` evaluates at step_at_; the outcome
  // kept is the first step where the expectation fails (a missing value ends the walk).
  StepOutcome over_steps(std::int64_t seed, const std::function<Assertion::Outcome()>& one) {
    std::vector<std::string> steps{base_at_};
    if (base_at_ == "every") {
      steps = {"final"};  // no such job or metric: value_for says which
      if (const JobRecord* job = table_.find_job(base_, seed)) {
        const auto it = job->history.find(parsed_.metrics().front());
        if (it != job->history.end() && !it->second.empty()) {
          steps.clear();
          for (const auto& [step, value] : it->second) {
            if (step > 0 || it->second.size() == 1) steps.push_back(std::to_string(step));
          }
        }
      }
    }
    StepOutcome kept;
    for (const auto& s : steps) {
      step_at_ = s;
      const auto o = one();
      if (kept.step.empty() || !o.holds || std::isnan(o.lhs) || std::isnan(o.rhs)) kept = {o, s};
      if (!o.holds || std::isnan(o.lhs) || std::isnan(o.rhs)) break;
    }
    return kept;
  }

  const JobTable& table_;
  const AssertSpec& a_;
  const Assertion& parsed_;
  const Mode& mode_;
  Evaluation& e_;
  Pairs base_;                    // the point, with a control's keys changed
  std::string base_at_;           // the step it is read at: a.at, "init", or a control's step
  std::string step_at_;           // the step value_for reads: base_at_, or under at = "every" each step in turn
  std::set<std::string> picked_;  // what argmax selectors chose for the check being evaluated
  std::string label_;             // "key=value key2=value2"
};

Evaluation JobTable::evaluate(const AssertSpec& a, const Assertion& parsed, const Mode& mode) const {
  Evaluation e;
  const auto filter = parse_where(a.points);
  for (const auto& [index, assignments] : points_) {
    bool selected = true;
    for (const auto& [k, v] : filter) {
      bool match = false;
      for (const auto& [pk, pv] : assignments) match |= pk == k && where_matches(v, pv);
      selected &= match;
    }
    if (!selected) continue;
    PointCheck check(*this, a, parsed, mode, assignments, e);
    if (a.over == "mean") {
      check.check_mean();
    } else {
      check.check_seeds();
    }
    e.any_checked = true;
  }
  e.holds &= e.any_checked;
  return e;
}

// Whether every metric reference names its own step: then the assertion is about a trend between
// steps, and evaluating it "at initialisation" would read the same values.
bool every_reference_names_a_step(const Assertion& parsed) {
  for (const auto& sel : parsed.selectors()) {
    bool named = false;
    for (const auto& [k, v] : sel) named |= k == "step" && !parse_argmax(v);  // step=argmax(…) is capped at init
    if (!named) return false;
  }
  return true;
}

std::string evidence_of(const std::vector<std::string>& failed) {
  constexpr std::size_t kShown = 4;  // the rest are in asserts.json
  std::string evidence;
  for (std::size_t i = 0; i < failed.size() && i < kShown; ++i) evidence += (i ? "; " : ": ") + failed[i];
  if (failed.size() > kShown) evidence += "; and " + std::to_string(failed.size() - kShown) + " more (asserts.json)";
  return evidence;
}

}  // namespace

// Evaluates every assertion over the jobs, at initialisation and at its controls; logs the
// verdicts; returns (json, all held).
std::pair<json, bool> evaluate_assertions(const std::vector<AssertSpec>& asserts, const std::vector<JobRecord>& jobs,
                                          spdlog::logger* log) {
  const JobTable table(jobs);
  json results = json::array();
  bool all = true;
  std::size_t at_init = 0, uncontrolled = 0;
  for (const auto& a : asserts) {
    const Assertion parsed = Assertion::parse(a.expect);
    const Evaluation own = table.evaluate(a, parsed, {});
    bool holds = own.holds;
    json entry{{"expect", a.expect}, {"at", a.at}, {"over", a.over}, {"holds", holds}, {"checks", own.checks}};
    if (!a.points.empty()) entry["where"] = a.points;
    if (!own.missing.empty()) entry["missing"] = own.missing;
    if (!own.any_checked) entry["missing"] = "no sweep point matches where = \"" + a.points + "\"";

    // The controls: the same expectation must fail there.
    std::vector<std::string> control_failures;
    json controls = json::array();
    for (const auto& selector : a.controls) {
      Mode mode;
      mode.control = parse_where(selector);
      mode.negate = true;
      const Evaluation c = table.evaluate(a, parsed, mode);
      controls.push_back({{"control", selector}, {"fails_there", c.holds}, {"checks", c.checks}});
      if (!c.holds) {
        control_failures.push_back("control " + selector + evidence_of(c.failed) +
                                   (c.missing.empty() ? "" : "; " + c.missing));
      }
      holds &= c.holds;
    }
    if (!a.controls.empty()) entry["controls"] = controls;

    // At initialisation: an expectation that already holds there may check nothing.
    json warnings = json::array();
    if (!every_reference_names_a_step(parsed)) {
      Mode mode;
      mode.init = true;
      const Evaluation init = table.evaluate(a, parsed, mode);
      entry["at_init"] = {{"holds", init.holds}, {"declared", a.holds_at_init}, {"checks", init.checks}};
      // A metric with no value at step 0 (recorded only once training has run) neither holds nor fails there:
      // say so rather than report a failure at initialisation that was never checked.
      if (!init.missing.empty()) entry["at_init"]["missing"] = init.missing;
      if (init.holds && !a.holds_at_init) {
        warnings.push_back("holds at initialisation");
        ++at_init;
      }
    }
    if (a.controls.empty()) {
      warnings.push_back("no control");
      ++uncontrolled;
    }
    entry["warnings"] = warnings;
    entry["holds"] = holds;
    results.push_back(entry);
    all &= holds;
    if (!log) continue;
    if (holds) {
      const bool init_warning = !warnings.empty() && warnings.front() == "holds at initialisation";
      if (init_warning) {
        log->warn("assert PASS  {}  ({}, {}) but it holds at initialisation too: it may check nothing (declare "
                  "holds_at_init = true if that is its point, or give it a control)", a.expect, a.at, a.over);
      } else {
        log->info("assert PASS  {}  ({}, {}){}", a.expect, a.at, a.over,
                  a.controls.empty() ? "" : ", fails at its control" + std::string(a.controls.size() > 1 ? "s" : ""));
      }
    } else {
      std::string why = own.holds ? "" : evidence_of(own.failed);
      for (const auto& f : control_failures) why += (why.empty() ? ": " : "; ") + f + " (it must not hold there)";
      log->error("assert FAIL  {}  ({}, {}){}{}", a.expect, a.at, a.over, why,
                 entry.contains("missing") ? "; " + entry["missing"].get<std::string>() : std::string());
    }
  }
  if (log && (at_init > 0 || uncontrolled > 0)) {
    log->warn("assertions: {} of {} hold at initialisation too, {} have no control (asserts.json: warnings)", at_init,
              asserts.size(), uncontrolled);
  }
  return {results, all};
}

namespace {

// Whether a probe declaring these metric names (patterns, '*' for any text) records `key`.
bool records(const std::vector<std::string>& patterns, const std::string& key) {
  return std::any_of(patterns.begin(), patterns.end(),
                     [&](const std::string& p) { return fnmatch(p.c_str(), key.c_str(), 0) == 0; });
}

}  // namespace

void check_assertions(const RunPlan& plan) {
  std::vector<Diagnostic> errors;
  std::set<std::string> prefixes{"train"};
  // The metric names each probe declares (patterns), by instance name; a probe that declares none
  // (or one whose component differs between sweep points) is not checked past its name.
  std::map<std::string, std::pair<std::string, std::vector<std::string>>> declared;  // name → (component, patterns)
  std::set<std::string> undeclared;
  for (const auto& p : plan.points) {
    for (const auto& probe : p.probes) {
      prefixes.insert(probe.name);
      const auto* component = probe.ref.component;
      if (!component || component->metrics.empty()) {
        undeclared.insert(probe.name);
        continue;
      }
      auto [it, fresh] = declared.emplace(probe.name, std::make_pair(component->name, component->metrics));
      if (!fresh && it->second.second != component->metrics) undeclared.insert(probe.name);
    }
  }
  for (const auto& name : undeclared) declared.erase(name);
  std::map<std::string, std::set<std::string>> axis_values;
  for (const auto& axis : plan.axes) {
    for (const auto& v : axis.values) axis_values[axis.key].insert(unquote(v));
  }
  auto check_pairs = [&](const std::vector<std::pair<std::string, std::string>>& pairs, const std::string& where,
                         const std::string& path, bool steps, bool selections = false) {
    std::string criterion;  // the one metric every argmax of this selector maximises
    for (const auto& [k, v] : pairs) {
      std::optional<ArgmaxSelection> selection;
      try {
        selection = parse_argmax(v);
      } catch (const Error& e) {
        errors.push_back({where, path + ": " + e.what()});
        continue;
      }
      if (selection && !selections) {
        errors.push_back({where, path + ": " + k + "=" + v + ": argmax(…) chooses a value inside an expect's selector "
                                     "only; here write a value"});
        continue;
      }
      if (selection) {
        const auto dot = selection->metric.find('.');
        if (dot == std::string::npos || !prefixes.count(selection->metric.substr(0, dot))) {
          errors.push_back({where, path + ": argmax(" + selection->metric + ") names no probe's metric (<probe name>.<metric>)"});
        }
        if (!criterion.empty() && criterion != selection->metric) {
          errors.push_back({where, path + ": one selector chooses by one metric; it has argmax(" + criterion + ") and argmax(" +
                                       selection->metric + ")"});
        }
        criterion = selection->metric;
        if (k != "step" && !axis_values.count(k)) {
          errors.push_back({where, path + ": '" + k + "' is not a [sweep] key" +
                                       (axis_values.empty() ? " (this pipeline has no [sweep])" : "")});
          continue;
        }
        for (const auto& c : selection->candidates) {
          if (k == "step" ? c.find_first_not_of("0123456789") != std::string::npos : !axis_values.at(k).count(c)) {
            errors.push_back({where, path + ": argmax candidate " + k + "=" + c + " is " +
                                         (k == "step" ? "not a step number" : "never in the sweep")});
          }
        }
        continue;
      }
      if (steps && k == "step") {
        if (v != "final" && (v.empty() || v.find_first_not_of("0123456789") != std::string::npos)) {
          errors.push_back({where, path + ": step=" + v + " is not a step; write a step number or step=final"});
        }
        continue;
      }
      auto it = axis_values.find(k);
      if (it == axis_values.end()) {
        errors.push_back({where, path + ": '" + k + "' is not a [sweep] key" +
                                     (axis_values.empty() ? " (this pipeline has no [sweep])" : "")});
      } else if (!it->second.count(v)) {
        std::string known;
        for (const auto& x : it->second) known += (known.empty() ? "" : ", ") + x;
        errors.push_back({where, path + ": " + k + " is never '" + v + "' in the sweep (values: " + known + ")"});
      }
    }
  };
  const auto& asserts = plan.points.front().asserts;
  for (std::size_t i = 0; i < asserts.size(); ++i) {
    const auto& a = asserts[i];
    const std::string path = "assert." + std::to_string(i);
    try {
      const Assertion parsed = Assertion::parse(a.expect);
      std::set<std::string> reported;  // a metric read twice ("m[step=600] > m[step=100]") is one error
      for (std::size_t m = 0; m < parsed.metrics().size(); ++m) {
        const auto& metric = parsed.metrics()[m];
        const auto dot = metric.find('.');
        if ((dot == std::string::npos || !prefixes.count(metric.substr(0, dot))) && reported.insert(metric).second) {
          std::string known;
          for (const auto& k : prefixes) known += (known.empty() ? "" : ", ") + k;
          errors.push_back({a.where, path + ".expect: '" + metric + "' names no probe of this pipeline; metrics are "
                                         "<probe name>.<metric>, with probe names: " + known});
        }
        if (dot != std::string::npos && reported.count(metric) == 0) {
          const auto it = declared.find(metric.substr(0, dot));
          const std::string key = metric.substr(dot + 1);
          if (it != declared.end() && !records(it->second.second, key)) {
            reported.insert(metric);
            std::string known;
            for (const auto& k : it->second.second) known += (known.empty() ? "" : ", ") + k;
            std::vector<std::string> names;
            for (const auto& k : it->second.second) {
              if (k.find('*') == std::string::npos) names.push_back(it->first + "." + k);
            }
            const auto guess = closest_name(metric, names);
            errors.push_back({a.where, path + ".expect: probe '" + it->first + "' records no metric '" + key + "'" +
                                           (guess ? "; did you mean '" + *guess + "'?" : "") + " (it records: " + known +
                                           "; see featurelab describe " + it->second.first + ")"});
          }
        }
        check_pairs(parsed.selectors()[m], a.where, path + ".expect", true, true);
      }
      // where: each of a value's alternatives (a|b) must be a value of the sweep.
      std::vector<std::pair<std::string, std::string>> where_pairs;
      for (const auto& [k, v] : parse_where(a.points)) {
        std::istringstream alternatives(v);
        std::string one;
        while (std::getline(alternatives, one, '|')) where_pairs.emplace_back(k, one);
      }
      check_pairs(where_pairs, a.where, path + ".where", false);
      for (const auto& control : a.controls) {
        const auto pairs = parse_where(control);
        if (pairs.empty()) errors.push_back({a.where, path + ".control: an empty selector; write key=value (a sweep key, or step=0)"});
        for (const auto& [k, v] : pairs) {
          if (v.find('|') != std::string::npos) {
            errors.push_back({a.where, path + ".control: " + k + "=" + v + ": a control is one point; '|' (either value) "
                                                                           "is for where only"});
          }
        }
        check_pairs(pairs, a.where, path + ".control", true);
      }
    } catch (const Error& e) {
      errors.push_back({a.where, path + ".expect: " + e.what()});
    }
  }
  if (!errors.empty()) throw ConfigError(errors);
}

}  // namespace featurelab
