#include "kernel/job/job_components.hpp"

#include "kernel/job/memory_budget.hpp"
#include "kernel/job/out_of_memory.hpp"

#include <featurelab/core/catalog.hpp>

#include <featurelab/activation.hpp>
#include <featurelab/capabilities.hpp>

#include <new>

namespace featurelab {

namespace {

bool weighs_patch_counts(const Model& model) {
  const auto* weighs = dynamic_cast<const WeighsPatchCounts*>(&model);
  return weighs != nullptr && weighs->weighs_patch_counts();
}

class Builder {
 public:
  Builder(const Pipeline& p, Catalog& catalog, std::uint64_t seed, spdlog::logger* log, JobComponents& out)
      : p_(p), catalog_(catalog), seed_(seed), log_(log), c_(out) {}

  void build() {
    c_.distribution = make<Distribution>(p_.data, {});
    c_.spec = c_.distribution->spec();
    c_.features = c_.distribution->features();
    for (const auto& t : p_.transforms) {
      c_.transforms.push_back(make<Transform>(t, c_.spec));
      c_.spec = located(t, [&] { return c_.transforms.back()->output_spec(c_.spec); });
    }
    c_.trainer = make<Trainer>(p_.trainer, c_.spec);
    c_.total_steps = c_.trainer->total_steps();
    c_.model = make<Model>(p_.model, c_.spec);
    if (!c_.spec.shape.patch_counts.empty() && !weighs_patch_counts(*c_.model)) {
      throw ComponentError(p_.model.where, "model '" + p_.model.use +
                                               "' reads every stored patch once, but the data stores repeated patches "
                                               "once with a count (data.collapse_noise = true or similar): it "
                                               "would compute a different function; use a model that weighs patch "
                                               "counts (one implementing the SDK's WeighsPatchCounts) or store every "
                                               "patch");
    }
    c_.loss = make<Loss>(p_.loss, c_.spec);
    try {
      c_.loss->check_model(*c_.model, c_.spec);
    } catch (const std::exception& e) {
      throw ComponentError(p_.loss.where, "loss '" + p_.loss.use + "' cannot train model '" + p_.model.use + "': " + e.what());
    }
    for (const auto& r : p_.regularizers) {
      c_.regularizers.push_back(make<Regularizer>(r, c_.spec));
      try {
        c_.regularizers.back()->bind(*c_.model);
      } catch (const std::exception& e) {
        throw ComponentError(r.where, r.path + " (" + r.ref.qualified() + ") cannot regularize model '" + p_.model.use +
                                          "': " + e.what());
      }
    }
    if (!c_.regularizers.empty() && !c_.trainer->applies_regularizers()) {
      throw ComponentError(p_.trainer.where, "train: trainer '" + p_.trainer.use +
                                                 "' does not apply [[regularizer]] penalties; use train.use = "
                                                 "\"standard\" or remove the [[regularizer]] tables");
    }
    c_.optimizer = make<Optimizer>(p_.optimizer, c_.spec);
    for (const auto& a : p_.augments) c_.augments.push_back(make<Augment>(a, c_.spec));
    for (const auto& a : p_.attacks) {
      c_.attacks.push_back(make<Attack>(a, c_.spec));
      c_.named_attacks.push_back({a.name, c_.attacks.back().get()});
    }
    for (const auto& probe : p_.probes) c_.probes.push_back(make<Probe>(probe, c_.spec));
    for (const auto& callback : p_.callbacks) c_.callbacks.push_back(make<Callback>(callback, c_.spec));
  }

 private:
  // Runs f, turning what it throws into a ComponentError located at c's section; the message
  // names the component unless it does already (the catalog's construction errors).
  template <class F>
  auto located(const ComponentConfig& c, F&& f, bool named = false) -> decltype(f()) {
    try {
      return f();
    } catch (const ComponentError&) {
      throw;
    } catch (const std::bad_alloc&) {
      throw ComponentError(c.where, out_of_memory_in(c.path + " (" + c.ref.qualified() + ")"));
    } catch (const std::exception& e) {
      throw ComponentError(c.where, (named ? "" : c.path + " (" + c.ref.qualified() + "): ") + e.what());
    }
  }

  // The context of the component at `path`: its own stream, the data, and factories for the
  // activations and sub-components (a network's layers) it names, each with a context of its own.
  Context context_for(const std::string& path, const DataSpec& spec) {
    Context ctx;
    ctx.log = log_;
    ctx.rng = Rng(derive_seed(seed_, path));
    ctx.path = path;
    ctx.data = spec;
    ctx.total_steps = c_.total_steps;
    ctx.features = &c_.features;
    ctx.memory_bytes = memory_bytes_;
    ctx.make_activation = [this, path](const std::string& name) -> std::shared_ptr<const ActivationFunction> {
      const ComponentRef ref = catalog_.find(Kind::Activation, name);
      Context own;
      own.log = log_;
      own.rng = Rng(derive_seed(seed_, path + ".activation"));
      own.path = path + ".activation";
      // Built from its defaults: a model's `activation` parameter names it, with nothing else to give.
      for (const auto& param : ref.component->schema.specs()) {
        if (!param.default_value) {
          throw Error("activation '" + name + "' has a required parameter '" + param.name + "', but an activation "
                      "is built from its defaults (a model's `activation` names it, nothing more): give it a default");
        }
      }
      return catalog_.make<ActivationFunction>(ref, Params::defaults(ref.component->schema), own);
    };
    ctx.make_component = [this, spec](Kind kind, const ComponentSpec& sub) -> std::shared_ptr<Component> {
      const ComponentRef ref = catalog_.find(kind, sub.use);
      Context own = context_for(sub.path, spec);
      return catalog_.make<Component>(ref, sub.params, own);
    };
    return ctx;
  }

  template <class T>
  std::shared_ptr<T> make(const ComponentConfig& c, const DataSpec& spec) {
    Context ctx = context_for(c.path, spec);
    return located(c, [&] { return catalog_.make<T>(c.ref, c.params, ctx); }, true);
  }

  const Pipeline& p_;
  Catalog& catalog_;
  double memory_bytes_ = process_memory_budget_bytes();
  std::uint64_t seed_;
  spdlog::logger* log_;
  JobComponents& c_;
};

}  // namespace

void build_components(const Pipeline& p, Catalog& catalog, std::uint64_t seed, spdlog::logger* log, JobComponents& out) {
  Builder(p, catalog, seed, log, out).build();
}

}  // namespace featurelab
