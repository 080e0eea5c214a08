// Pipeline validation against the std pack's schemas: every error located and explained.
#include "kernel/config/validate.hpp"
#include "kernel/job/memory_budget.hpp"
#include "execution/run.hpp"

#include "temp_dir.hpp"
#include "test_paths.hpp"

#include <set>

#include <catch2/catch.hpp>

using namespace featurelab;

namespace {

const char* kGood = R"([experiment]
name = "xor"
seeds = [0, 1]

[data]
use = "xor-clusters"
dim = 2
train = 200
test = 100

[model]
use = "two-layer"
width = 20

[loss]
use = "logistic"

[optimizer]
use = "gd"
lr = 0.05

[train]
steps = 10

[[probe]]
use = "accuracy"

[[assert]]
expect = "accuracy.test >= 0.5"
)";

// Pipelines point into the catalog, so it outlives them all.
Catalog& std_catalog() {
  static Catalog catalog = [] {
    Catalog c;
    c.discover({FEATURELAB_PLUGIN_BUILD_DIR});
    return c;
  }();
  return catalog;
}

Pipeline validate_text(const std::string& text, const std::vector<std::string>& overrides = {}) {
  test::TempDir dir;
  const auto file = dir.write("p.toml", text);
  RunPlan plan = plan_run(file, overrides, std_catalog());
  check_assertions(plan);
  return plan.points.front();
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("a good pipeline resolves with every default filled") {
  const Pipeline p = validate_text(kGood);
  CHECK(p.name == "xor");
  CHECK(p.seeds == std::vector<std::int64_t>{0, 1});
  CHECK(p.train_size == 200);
  CHECK(p.model.params.integer("width") == 20);
  CHECK(p.model.params.has("activation"));  // a default
  CHECK(p.trainer.use == "standard");       // [train] without use
  CHECK(p.optimizer.params.real("lr") == Approx(0.05));
  const std::string operative = p.operative_toml();
  CHECK_THAT(operative, Catch::Contains("use = 'std:two-layer'") && Catch::Contains("activation = "));
}

TEST_CASE("the operative config is itself a valid pipeline that resolves the same") {
  const Pipeline p = validate_text(kGood);
  const Pipeline again = validate_text(p.operative_toml());
  CHECK(again.operative_toml() == p.operative_toml());
  // An assertion at a step number: `run --prepare` writes it, `featurelab job` reads it back.
  const Pipeline at_step = validate_text(replace(kGood, "expect = \"accuracy.test >= 0.5\"",
                                                 "expect = \"accuracy.test >= 0.5\"\nat = 5"));
  CHECK_THAT(at_step.operative_toml(), Catch::Contains("at = 5"));
  CHECK(validate_text(at_step.operative_toml()).operative_toml() == at_step.operative_toml());
  const Pipeline at_every = validate_text(replace(kGood, "expect = \"accuracy.test >= 0.5\"",
                                                  "expect = \"accuracy.test >= 0.5\"\nat = \"every\""));
  CHECK_THAT(at_every.operative_toml(), Catch::Contains("at = 'every'") || Catch::Contains("at = \"every\""));
  CHECK(validate_text(at_every.operative_toml()).operative_toml() == at_every.operative_toml());
  CHECK_THROWS_WITH(validate_text(replace(kGood, "expect = \"accuracy.test >= 0.5\"",
                                          "expect = \"accuracy.test >= 0.5\"\nat = \"always\"")),
                    Catch::Contains("expected \"final\", \"every\""));
}

TEST_CASE("unknown keys and sections get did-you-mean with file and line") {
  CHECK_THROWS_WITH(validate_text(replace(kGood, "width = 20", "widht = 20")),
                    Catch::Contains("p.toml:13:9: model.widht: unknown parameter of model 'two-layer'; did you mean 'width'?"));
  CHECK_THROWS_WITH(validate_text(replace(kGood, "[train]", "[trian]")),
                    Catch::Contains("trian: unknown section; did you mean 'train'?"));
}

TEST_CASE("wrong types and out-of-range values say what is expected") {
  CHECK_THROWS_WITH(validate_text(replace(kGood, "lr = 0.05", "lr = -1")),
                    Catch::Contains("optimizer.lr: expected a number > 0, got -1") && Catch::Contains("p.toml:20"));
  CHECK_THROWS_WITH(validate_text(replace(kGood, "width = 20", "width = \"wide\"")),
                    Catch::Contains("model.width: expected an integer") && Catch::Contains("got \"wide\" (string)"));
  CHECK_THROWS_WITH(validate_text(kGood, {"model.second_layer=fixed"}),
                    Catch::Contains("--set model.second_layer: model.second_layer: expected one of"));
  CHECK_THROWS_WITH(validate_text(replace(kGood, "train = 200", "train = 0")),
                    Catch::Contains("data.train: expected an integer >= 1 or \"all\", got 0"));
  CHECK_THROWS_WITH(validate_text(replace(kGood, "train = 200", "train = \"most\"")),
                    Catch::Contains("data.train: expected an integer >= 1 or \"all\", got a string"));
}

TEST_CASE("an automatic key is \"auto\" when left out or written so, a number otherwise, and 0 is refused naming auto") {
  // std two-layer: init_scale = auto (1/√D) by default.
  const Pipeline p = validate_text(kGood);
  CHECK(is_auto(p.model.params.at("init_scale")));
  CHECK_FALSE(p.model.params.real_or_auto("init_scale").has_value());
  CHECK_THAT(p.operative_toml(), Catch::Contains("init_scale = 'auto'") || Catch::Contains("init_scale = \"auto\""));
  const Pipeline written = validate_text(replace(kGood, "width = 20", "width = 20\ninit_scale = \"auto\""));
  CHECK(written.operative_toml() == p.operative_toml());
  const Pipeline number = validate_text(kGood, {"model.init_scale=0.25"});
  CHECK(number.model.params.real_or_auto("init_scale") == std::optional<double>(0.25));
  CHECK(validate_text(kGood, {"model.init_scale=auto"}).operative_toml() == p.operative_toml());
  CHECK_THROWS_WITH(validate_text(replace(kGood, "width = 20", "width = 20\ninit_scale = 0")),
                    Catch::Contains("model.init_scale: expected a number > 0 or \"auto\", got 0") &&
                        Catch::Contains("0 no longer means 1/√D: write init_scale = \"auto\" or leave the key out"));
  CHECK_THROWS_WITH(validate_text(replace(kGood, "width = 20", "width = \"auto\"")),
                    Catch::Contains("model.width: expected an integer >= 1, got \"auto\", but width has no automatic value"));
  CHECK_THROWS_WITH(validate_text(replace(kGood, "width = 20", "width = 20\ninit_scale = \"big\"")),
                    Catch::Contains("model.init_scale: expected a number > 0 or \"auto\", got \"big\" (string); the default is "
                                    "auto (1/√D)"));
}

TEST_CASE("data.train = \"all\" is kept for the job, which asks a finite distribution for its size") {
  const Pipeline p = validate_text(replace(kGood, "train = 200", "train = \"all\""));
  CHECK(p.train_size == kAllSamples);
  CHECK(p.operative_toml().find("train = 'all'") != std::string::npos);
}

TEST_CASE("a dataset larger than the machine is refused at validation with the estimate") {
  // n = 1e9 samples of dimension 1e4 in 4- or 8-byte scalars: 37 TiB at least, on any machine.
  const std::string huge = replace(replace(kGood, "dim = 2", "dim = 10000"), "train = 200", "train = 1000000000");
  CHECK_THROWS_WITH(validate_text(huge),
                    Catch::Matches(".*/p\\.toml:[0-9]+:[0-9]+: data: 1000000000 train \\+ 100 test samples of dimension 10000 "
                                   "need [0-9.]+ GiB for the samples alone, the machine has [0-9.]+ GiB; lower data\\.train.*"));
  // Per sweep point: only the point that does not fit is refused.
  CHECK_THROWS_WITH(validate_text(std::string(kGood) + "\n[sweep]\n\"data.dim\" = [2, 10000000000]\n"),
                    Catch::Contains("samples of dimension 10000000000 need"));
  CHECK_NOTHROW(validate_text(std::string(kGood) + "\n[sweep]\n\"data.dim\" = [2, 1000]\n"));
}

TEST_CASE("the memory estimate is the samples' bytes against the machine") {
  const double machine = machine_memory_bytes();
  REQUIRE(machine > 0);
  const double fits = 0.5 * machine / double(sizeof(Scalar));  // scalars in half the machine
  CHECK(dataset_memory_problem(fits / 1000, 0, 1000).empty());
  CHECK_THAT(dataset_memory_problem(fits / 1000, fits / 1000, 1000), Catch::Contains("lower data.train / data.test"));
  CHECK(dataset_memory_problem(0, 0, 1e12).empty());  // no samples, no memory
}

TEST_CASE("unknown components are suggested with their pack and file") {
  CHECK_THROWS_WITH(validate_text(replace(kGood, "use = \"two-layer\"", "use = \"two-layr\"")),
                    Catch::Contains("model.use: no model 'two-layr'; did you mean 'two-layer' (pack std"));
  CHECK_THROWS_WITH(validate_text(replace(kGood, "[loss]\nuse = \"logistic\"\n", "")),
                    Catch::Contains("missing section [loss]"));
}

TEST_CASE("every problem is reported at once") {
  try {
    validate_text(replace(replace(kGood, "lr = 0.05", "lr = -1"), "width = 20", "widht = 20"));
    FAIL("expected a ConfigError");
  } catch (const ConfigError& e) {
    CHECK(e.diagnostics().size() == 2);
  }
}

TEST_CASE("assertions naming no probe, and malformed ones, are refused before running") {
  CHECK_THROWS_WITH(validate_text(replace(kGood, "accuracy.test >= 0.5", "acuracy.test >= 0.5")),
                    Catch::Contains("'acuracy.test' names no probe"));
  CHECK_THROWS_WITH(validate_text(replace(kGood, "accuracy.test >= 0.5", "accuracy.test >=")),
                    Catch::Contains("assert.0.expect"));
  CHECK_THROWS_WITH(validate_text(kGood + std::string("[[probe]]\nuse = \"accuracy\"\n")),
                    Catch::Contains("two probes are named 'accuracy'"));
}

TEST_CASE("a where value's alternatives (a|b) are each checked against the sweep, and a control takes one value") {
  const std::string swept = std::string(kGood) + "[sweep]\n\"model.width\" = [4, 8]\n";
  const std::string expect = "expect = \"accuracy.test >= 0.5\"";
  CHECK_NOTHROW(validate_text(replace(swept, expect, expect + "\nwhere = \"model.width=4|8\"")));
  CHECK_THROWS_WITH(validate_text(replace(swept, expect, expect + "\nwhere = \"model.width=4|16\"")),
                    Catch::Contains("model.width is never '16' in the sweep"));
  CHECK_THROWS_WITH(validate_text(replace(swept, expect, expect + "\ncontrol = \"model.width=4|8\"")),
                    Catch::Contains("'|' (either value) is for where only"));
}

TEST_CASE("argmax selectors are checked before running: their metric, their key, their candidates") {
  const std::string swept = std::string(kGood) + "[sweep]\n\"model.width\" = [4, 8]\n";
  auto with = [&](const std::string& expect) {
    return validate_text(replace(swept, "accuracy.test >= 0.5", expect));
  };
  CHECK_NOTHROW(with("accuracy.test[model.width=argmax(accuracy.train; 4 8), step=argmax(accuracy.train)] >= 0.5"));
  CHECK_THROWS_WITH(with("accuracy.test[model.width=argmax(acuracy.train)] >= 0.5"),
                    Catch::Contains("argmax(acuracy.train) names no probe's metric"));
  CHECK_THROWS_WITH(with("accuracy.test[model.widht=argmax(accuracy.train)] >= 0.5"),
                    Catch::Contains("'model.widht' is not a [sweep] key"));
  CHECK_THROWS_WITH(with("accuracy.test[model.width=argmax(accuracy.train; 4 16)] >= 0.5"),
                    Catch::Contains("argmax candidate model.width=16 is never in the sweep"));
  CHECK_THROWS_WITH(with("accuracy.test[model.width=argmax(accuracy.train), step=argmax(accuracy.test)] >= 0.5"),
                    Catch::Contains("one selector chooses by one metric"));
  CHECK_THROWS_WITH(with("accuracy.test[model.width=argmax(accuracy.train] >= 0.5"), Catch::Contains("does not end with ')'"));
  CHECK_THROWS_WITH(validate_text(replace(swept, "expect = \"accuracy.test >= 0.5\"",
                                          "expect = \"accuracy.test >= 0.5\"\nwhere = \"model.width=argmax(accuracy.train)\"")),
                    Catch::Contains("argmax(…) chooses a value inside an expect's selector only"));
}

TEST_CASE("a sweep can swap a component, each point is validated against its own schema") {
  test::TempDir dir;
  const auto file = dir.write("p.toml", std::string(kGood) + "[sweep]\n\"optimizer.use\" = [\"gd\", \"adam\"]\n"
                                                           "\"model.width\" = [4, 8]\n");
  const RunPlan plan = plan_run(file, {}, std_catalog());
  REQUIRE(plan.points.size() == 4);
  CHECK(plan.jobs.size() == 8);  // × 2 seeds
  // Keys in name order, the last varying fastest: (4, gd), (4, adam), (8, gd), (8, adam).
  CHECK(plan.points[1].optimizer.use == "adam");
  CHECK(plan.points[1].optimizer.params.has("beta1"));
  CHECK(plan.points[2].model.params.integer("width") == 8);
  CHECK(plan.jobs[2].point_label() == "model.width=4 optimizer.use=adam");
  std::set<std::string> ids;
  for (const auto& j : plan.jobs) ids.insert(j.id);
  CHECK(ids.size() == 8);  // every job distinct
  const RunPlan again = plan_run(file, {}, std_catalog());
  CHECK(again.jobs[5].id == plan.jobs[5].id);  // stable

  const auto bad = dir.write("bad.toml", replace(std::string(kGood), "lr = 0.05", "lr = 0.05\nmomentum = 0.9") +
                                             "[sweep]\n\"optimizer.use\" = [\"sgd\", \"adam\"]\n");
  CHECK_THROWS_WITH(plan_run(bad, {}, std_catalog()),
                    Catch::Contains("optimizer.momentum: unknown parameter of optimizer 'adam'"));
  const auto typo = dir.write("typo.toml", std::string(kGood) + "[sweep]\n\"model.widht\" = [4]\n");
  CHECK_THROWS_WITH(plan_run(typo, {}, std_catalog()), Catch::Contains("[sweep] model.widht"));
}

TEST_CASE("regularizer tables resolve in order, enter the operative config and are checked like components") {
  const std::string text = replace(kGood, "[optimizer]",
                                   "[[regularizer]]\nuse = \"l2\"\nlambda = 0.1\n\n"
                                   "[[regularizer]]\nuse = \"nuclear-norm\"\nhook = \"hidden.post\"\n\n[optimizer]");
  const Pipeline p = validate_text(text);
  REQUIRE(p.regularizers.size() == 2);
  CHECK(p.regularizers[0].use == "l2");
  CHECK(p.regularizers[1].params.integer("warmup") == 0);  // a default
  CHECK_THAT(p.operative_toml(), Catch::Contains("[[regularizer]]") && Catch::Contains("use = 'std:nuclear-norm'"));
  CHECK(validate_text(p.operative_toml()).operative_toml() == p.operative_toml());
  CHECK_THROWS_WITH(validate_text(replace(text, "use = \"l2\"", "use = \"l3\"")), Catch::Contains("'l3'"));
  CHECK_THROWS_WITH(validate_text(replace(text, "lambda = 0.1", "lambda = -1")),
                    Catch::Contains("regularizer.0.lambda") || Catch::Contains("regularizer[0].lambda") ||
                        Catch::Contains("lambda: expected a number >= 0"));
}

TEST_CASE("a --set of a key the sweep also sets is refused, naming the key, the sweep and the fix") {
  const std::string swept = std::string(kGood) + "[sweep]\n\"model.width\" = [4, 8]\n";
  CHECK_THROWS_WITH(validate_text(swept, {"model.width=30"}),
                    Catch::Matches("--set model\\.width: the \\[sweep\\] \\(.*/p\\.toml:31:17\\) also sets model\\.width, "
                                   "and each sweep point's value replaces this one; to run other values, set the "
                                   "sweep's instead: --set 'sweep\\.model\\.width=\\[30\\]', or drop this --set"));
  // The fix it names: the sweep's own values, from the command line.
  CHECK(validate_text(swept, {"sweep.model.width=[30]"}).model.params.integer("width") == 30);
  // ... also written as TOML writes the sweep's key, quoted; an unbalanced quote is refused with the fix.
  CHECK(validate_text(swept, {"sweep.\"model.width\"=[31]"}).model.params.integer("width") == 31);
  CHECK_THROWS_WITH(validate_text(swept, {"sweep.\"model.width=[31]"}), Catch::Contains("unbalanced double quote"));
  // A key that a variant sets: the variant is located, and is what to edit.
  const std::string variants = std::string(kGood) + "[sweep]\nsteps = [{ name = \"short\", \"train.steps\" = 5 }]\n";
  CHECK_THROWS_WITH(validate_text(variants, {"train.steps=50"}),
                    Catch::Contains("--set train.steps: the [sweep] (") && Catch::Contains("p.toml:31:44) also sets train.steps") &&
                        Catch::Contains("edit the [sweep] variants that set it, or drop this --set"));
  CHECK_NOTHROW(validate_text(swept, {"model.activation=\"relu\""}));  // keys the sweep leaves alone
}

TEST_CASE("a --set of a key only some variants set applies to the others and warns naming those that keep theirs") {
  // A reduced run of a sweep whose "frozen" variant trains no steps: the --set shortens the other.
  const std::string text = std::string(kGood) +
                           "[sweep]\nsteps = [{ name = \"trained\", \"model.width\" = 8 }, "
                           "{ name = \"frozen\", \"train.steps\" = 0 }]\n";
  test::TempDir dir;
  RunPlan plan = plan_run(dir.write("p.toml", text), {"train.steps=50"}, std_catalog());
  REQUIRE(plan.points.size() == 2);
  CHECK(plan.points[0].trainer.params.integer("steps") == 50);
  CHECK(plan.points[1].trainer.params.integer("steps") == 0);
  REQUIRE(plan.warnings.size() == 1);
  CHECK_THAT(plan.warnings[0], Catch::Contains("--set train.steps applies to the sweep points of steps but \"frozen\" (") &&
                                   Catch::Contains("p.toml:31:86), which sets train.steps itself"));
}

TEST_CASE("every sweep value is checked against its component's schema, located at the value") {
  CHECK_THROWS_WITH(validate_text(std::string(kGood) + "[sweep]\n\"model.width\" = [10, \"x\"]\n"),
                    Catch::Matches(".*/p\\.toml:31:22 \\(\\[sweep\\] model\\.width\\): model\\.width: expected an integer "
                                   ">= 1, got \"x\" \\(string\\).*"));
  CHECK_THROWS_WITH(validate_text(std::string(kGood) + "[sweep]\nmodel.width = [10, 0.5]\n"),
                    Catch::Contains("p.toml:31:20 ([sweep] model.width): model.width: expected an integer"));
  CHECK_THROWS_WITH(validate_text(std::string(kGood) + "[sweep]\nfast = [{ name = \"a\", \"optimizer.lr\" = \"quick\" }]\n"),
                    Catch::Contains("p.toml:31:40 ([sweep] optimizer.lr): optimizer.lr: expected a number > 0, got \"quick\""));
}

TEST_CASE("a seed listed twice is a located error") {
  CHECK_THROWS_WITH(validate_text(replace(kGood, "seeds = [0, 1]", "seeds = [0, 1, 0]")),
                    Catch::Contains("p.toml:3:16: experiment.seeds: seed 0 is listed twice"));
}

TEST_CASE("a probe's name is a plain name: no path, no dot") {
  for (const std::string name : {"/tmp/x", "a/b", "..", "a b", ""}) {
    CHECK_THROWS_WITH(validate_text(replace(kGood, "use = \"accuracy\"", "use = \"accuracy\"\nname = \"" + name + "\"")),
                      Catch::Contains("probe.0.name: expected a name of letters, digits, '-' and '_'"));
  }
  const std::string renamed = replace(replace(kGood, "use = \"accuracy\"", "use = \"accuracy\"\nname = \"clean_acc-2\""),
                                     "expect = \"accuracy.test", "expect = \"clean_acc-2.test");
  CHECK(validate_text(renamed).probes[0].name == "clean_acc-2");
}

TEST_CASE("an axis written twice, or a value listed twice in an axis, is a located error") {
  // A quoted key and nested tables name the same axis.
  CHECK_THROWS_WITH(validate_text(std::string(kGood) + "[sweep]\n\"model.width\" = [4, 8]\nmodel.width = [16]\n"),
                    Catch::Contains("p.toml:31:17: sweep.model.width: this axis is written twice (also at ") &&
                        Catch::Contains("p.toml:32:15)"));
  CHECK_THROWS_WITH(validate_text(std::string(kGood) + "[sweep]\n\"model.width\" = [4, 8, 4]\n"),
                    Catch::Contains("p.toml:31:24: sweep.model.width: the value 4 is listed twice"));
  // A --set of the file's axis replaces it: one axis, the command line's values.
  test::TempDir dir;
  const RunPlan plan = plan_run(dir.write("p.toml", std::string(kGood) + "[sweep]\n\"model.width\" = [4, 8]\n"),
                                {"sweep.model.width=[16, 32]"}, std_catalog());
  REQUIRE(plan.axes.size() == 1);
  CHECK(plan.axes[0].values == std::vector<std::string>{"16", "32"});
  CHECK(plan.points[1].model.params.integer("width") == 32);
}

TEST_CASE("a sweep too large to plan is refused with its size before any point is made") {
  std::string axes = "[sweep]\n";
  for (const char* key : {"model.width", "optimizer.lr", "train.steps", "data.train", "data.test"}) {
    axes += "\"" + std::string(key) + "\" = [";
    for (int v = 1; v <= 10; ++v) axes += (v > 1 ? ", " : "") + std::to_string(v);
    axes += "]\n";
  }
  // 10^5 points × 2 seeds: refused at once, naming the count and how to reduce it.
  CHECK_THROWS_WITH(validate_text(std::string(kGood) + axes),
                    Catch::Contains("p.toml:30:1: [sweep]: 10 × 10 × 10 × 10 × 10 values × 2 seed(s) make 200000 jobs, "
                                    "more than the 100000 one run may plan") &&
                        Catch::Contains("split the sweep"));
  std::string seeds = "seeds = [0";
  for (int s = 1; s <= 100000; ++s) seeds += ", " + std::to_string(s);
  CHECK_THROWS_WITH(validate_text(replace(kGood, "seeds = [0, 1]", seeds + "]")),
                    Catch::Contains("experiment.seeds: 100001 seed(s) make 100001 jobs"));
}

TEST_CASE("each sweep point starts from the pipeline as written, with every node's location") {
  // Variants that set different keys, one of them in a table the file lacks: no point keeps what
  // an earlier point set.
  const std::string plain = replace(kGood, "[train]\nsteps = 10\n", "");
  const std::string text = plain +
                           "[sweep]\nv = [{ name = \"a\", \"model.bias\" = true, \"train.steps\" = 5 },"
                           " { name = \"b\", \"optimizer.lr\" = 0.5 }, { name = \"c\" }]\n";
  test::TempDir dir;
  const RunPlan plan = plan_run(dir.write("p.toml", text), {}, std_catalog());
  REQUIRE(plan.points.size() == 3);
  CHECK(plan.points[0].model.params.boolean("bias"));
  CHECK(plan.points[0].trainer.params.integer("steps") == 5);
  CHECK_FALSE(plan.points[1].model.params.boolean("bias"));
  CHECK(plan.points[1].trainer.params.integer("steps") != 5);  // the [train] table "a" made is gone
  CHECK(plan.points[1].optimizer.params.real("lr") == Approx(0.5));
  CHECK(plan.points[2].optimizer.params.real("lr") == Approx(0.05));
  CHECK(plan.points[2].operative_toml() == plan_run(dir.write("q.toml", plain), {}, std_catalog()).points[0].operative_toml());
  // A later point's problem is still located at the file's line.
  const std::string bad = replace(kGood, "width = 20", "width = 20\nwidht = 3") + "[sweep]\n\"model.width\" = [4, 8]\n";
  CHECK_THROWS_WITH(validate_text(bad), Catch::Contains("p.toml:14:9: model.widht: unknown parameter"));
  // Each point's sections keep their file:line for the messages of its jobs.
  for (const auto& point : plan.points) CHECK_THAT(point.model.where, Catch::Contains("p.toml:11:1"));
}

TEST_CASE("a job's id leaves out [experiment] and the assertions, and follows everything a job computes") {
  const Pipeline p = validate_text(kGood);
  const std::string id = job_id(p, 1);
  CHECK(job_id(validate_text(replace(kGood, "name = \"xor\"", "name = \"renamed\"\ntimeout = 600")), 1) == id);
  CHECK(job_id(validate_text(replace(kGood, "seeds = [0, 1]", "seeds = [1, 2, 3]")), 1) == id);
  CHECK(job_id(validate_text(replace(kGood, "accuracy.test >= 0.5", "accuracy.test >= 0.6")), 1) == id);
  CHECK(job_id(validate_text(replace(kGood, "width = 20", "width = 21")), 1) != id);
  CHECK(job_id(p, 0) != id);
  CHECK_THAT(p.computed_toml(), !Catch::Contains("[experiment]") && !Catch::Contains("seeds") &&
                                    Catch::Contains("[model]") && Catch::Contains("[[probe]]"));
}

TEST_CASE("other keys pass through typed as TOML writes them, and a pipeline-relative path is made absolute") {
  // The fixture pack's keyword-probe (read from its manifest); its `logistic` makes std's ambiguous, hence std:.
  Catalog catalog;
  catalog.discover({test::kPlugins.string(), (test::kFixtures / "fixture").string()});
  test::TempDir dir;
  std::filesystem::create_directories(dir.path() / "sub");
  const std::string text = replace(replace(kGood, "use = \"logistic\"", "use = \"std:logistic\""), "[[assert]]",
                                   "[[probe]]\nuse = \"fixture:keyword-probe\"\nk = 3\nratio = 0.5\nlabel = \"x\"\n"
                                   "on = true\nsizes = [1, 2]\nscales = [1, 2.5]\nnames = [\"a\"]\n\n[[assert]]");
  const auto file = dir.write("sub/p.toml", text);
  const Pipeline p = plan_run(file, {}, catalog).points.front();
  const Params& params = p.probes.at(1).params;
  CHECK(params.integer("k") == 3);
  CHECK(params.real("ratio") == 0.5);
  CHECK(params.str("label") == "x");
  CHECK(params.boolean("on"));
  CHECK(params.integers("sizes") == std::vector<std::int64_t>{1, 2});
  CHECK(params.reals("scales") == std::vector<double>{1, 2.5});
  CHECK(params.strings("names") == std::vector<std::string>{"a"});
  // "": the pipeline's directory; relative: against it; absolute: as written. Recorded so in the operative config.
  CHECK(params.str("dir") == (dir.path() / "sub").string());
  CHECK(p.operative_toml().find("dir = '" + (dir.path() / "sub").string() + "'") != std::string::npos);
  const auto relative = plan_run(file, {"probe.1.dir=\"data/../more\""}, catalog).points.front();
  CHECK(relative.probes.at(1).params.str("dir") == (dir.path() / "sub" / "more").string());
  CHECK(plan_run(file, {"probe.1.dir=\"/opt/x\""}, catalog).points.front().probes.at(1).params.str("dir") == "/opt/x");
  // A value TOML cannot hand over as a parameter: located, with what it takes.
  CHECK_THROWS_WITH(plan_run(file, {"probe.1.k={ a = 1 }"}, catalog),
                    Catch::Contains("probe.1.k: expected an integer, a number, a string, a boolean or a list of one of "
                                    "these, got a table (table)"));
  // A schema without other keys still refuses them.
  CHECK_THROWS_WITH(plan_run(file, {"probe.0.k=3"}, catalog), Catch::Contains("unknown parameter of probe 'accuracy'"));
}
