// How a shared library declares its pack: one FEATURELAB_PACK block per library.
//
//   FEATURELAB_PACK("my-pack", "1.0.0") {
//     pack.add<MyModel>("my-model");  // doc from MyModel::kDoc, parameters from MyModel::schema()
//   }
//
// The macro exports (through Boost.DLL's alias mechanism) one entry point, `featurelab_pack`,
// returning a PackHeader: a plain C struct whose first fields (ABI version, fingerprint) the core
// checks before it calls anything else in the library. The fingerprint is computed in the unit
// that expands the macro, with the plugin's own flags (build_fingerprint() has internal linkage).
//
// A name is registered once per pack, whatever the kind: a pipeline's use = "name" and the
// metrics of a probe named after it must mean one component. add() throws otherwise. Layers, named only
// in a network's layer list, have names of their own: a layer may share a name with another kind.
#pragma once

#include <featurelab/attack.hpp>
#include <featurelab/augment.hpp>
#include <featurelab/contract.hpp>
#include <featurelab/distribution.hpp>
#include <featurelab/layer.hpp>
#include <featurelab/error.hpp>
#include <featurelab/loss.hpp>
#include <featurelab/model.hpp>
#include <featurelab/optimizer.hpp>
#include <featurelab/probe.hpp>
#include <featurelab/trainer.hpp>
#include <featurelab/transform.hpp>
#include <featurelab/version.hpp>

#include <boost/dll/alias.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace featurelab {

using ComponentFactory = std::function<std::unique_ptr<Component>(const Params&, Context&)>;
// A distribution's sample dimension from its parameters alone (see distribution.hpp).
using DimensionEstimate = double (*)(const Params&);

struct ComponentInfo {
  Kind kind = Kind::Model;
  std::string name;
  std::string doc;
  Schema schema;
  ComponentFactory create;
  DimensionEstimate dimension = nullptr;  // distributions that declare static dimension(params)
  // T::interface_id of the kind interface it was compiled against ("featurelab.model/1"): the core
  // refuses a component whose kind interface is not the one it calls.
  std::string interface_id;
  std::string source;  // the file that declares it (its kDoc), for `featurelab describe`
  // Parameters the contract test builds it with, where its defaults do not fit a small data spec
  // (T::test_params(), optional).
  std::map<std::string, Value> test_params;
  // What the contract test checks it with (T::contract_data(), optional; empty parts: the defaults).
  ContractData contract;
  // A probe's metric names ("test", "r=*": '*' matches any text), so that `featurelab validate`
  // refuses an assertion reading one it never records (T::metrics(), optional; empty: undeclared).
  std::vector<std::string> metrics;
};

namespace detail {
template <class T, class = void>
struct declares_dimension : std::false_type {};
template <class T>
struct declares_dimension<T, std::void_t<decltype(double(T::dimension(std::declval<const Params&>())))>>
    : std::true_type {};
template <class T, class = void>
struct declares_metrics : std::false_type {};
template <class T>
struct declares_metrics<T, std::void_t<decltype(std::vector<std::string>(T::metrics()))>> : std::true_type {};
template <class T, class = void>
struct declares_test_params : std::false_type {};
template <class T>
struct declares_test_params<T, std::void_t<decltype(std::map<std::string, Value>(T::test_params()))>>
    : std::true_type {};
template <class T, class = void>
struct declares_contract_data : std::false_type {};
template <class T>
struct declares_contract_data<T, std::void_t<decltype(ContractData(T::contract_data()))>> : std::true_type {};
}  // namespace detail

class PackBuilder {
 public:
  // T derives from one of the kind interfaces, is constructible from (const Params&, Context&) and
  // declares `static constexpr featurelab::Doc kDoc` and `static Schema schema()`.
  template <class T>
  void add(const std::string& name) {
    static_assert(std::is_constructible_v<T, const Params&, Context&>,
                  "a component needs a constructor T(const featurelab::Params&, "
                  "featurelab::Context&); see PITFALLS.md beside this header "
                  "(<prefix>/include/featurelab/PITFALLS.md; sdk/PITFALLS.md in the source tree)");
    static_assert(std::is_convertible_v<decltype(T::kDoc), Doc>,
                  "a component declares `static constexpr featurelab::Doc kDoc = \"what it computes "
                  "(paper, equation)\";` in its class");
    for (const auto& prior : components_) {
      // A layer is named only inside a network's layer list, never as a section or a metric: it may share
      // its name with a component of another kind (the layer `linear` beside the model `linear`).
      if (prior.name != name || (prior.kind == Kind::Layer) != (T::kind_id == Kind::Layer)) continue;
      throw Error("the pack registers the name '" + name + "' twice (as a " + to_string(prior.kind) + " and as a " +
                  to_string(T::kind_id) + "); a name means one component in a pack, whatever its kind: "
                  "rename one of them in the pack's pack.add<...>(\"" + name + "\") calls");
    }
    const Doc doc = T::kDoc;
    ComponentInfo info;
    info.kind = T::kind_id;
    info.interface_id = T::interface_id;
    info.name = name;
    info.doc = doc.text;
    info.source = doc.file;
    info.schema = T::schema();
    info.create = [name](const Params& params, Context& context) -> std::unique_ptr<Component> {
      context.name = name;
      auto made = std::make_unique<T>(params, context);
      static_cast<Component&>(*made).name_ = name;
      return made;
    };
    if constexpr (detail::declares_dimension<T>::value) {
      info.dimension = [](const Params& params) { return double(T::dimension(params)); };
    }
    if constexpr (detail::declares_test_params<T>::value) info.test_params = T::test_params();
    if constexpr (detail::declares_contract_data<T>::value) info.contract = T::contract_data();
    if constexpr (detail::declares_metrics<T>::value) info.metrics = T::metrics();
    components_.push_back(std::move(info));
  }

  const std::vector<ComponentInfo>& components() const { return components_; }

 private:
  std::vector<ComponentInfo> components_;
};

extern "C" {
// Plain C layout; never reorder. abi_version is read first and alone.
struct PackHeader {
  std::uint32_t abi_version;
  const char* fingerprint;
  const char* pack_name;
  const char* pack_version;
  void (*register_components)(PackBuilder& pack);
};
}

using PackEntry = const PackHeader*();

}  // namespace featurelab

#define FEATURELAB_PACK(NAME, VERSION)                                                       \
  static void featurelab_register_components_(::featurelab::PackBuilder& pack);            \
  namespace {                                                                               \
  const ::featurelab::PackHeader* featurelab_pack_entry_() {                                \
    static const std::string fingerprint = ::featurelab::build_fingerprint();               \
    static const ::featurelab::PackHeader header = {FEATURELAB_ABI_VERSION,                 \
                                                    fingerprint.c_str(), NAME, VERSION,     \
                                                    &featurelab_register_components_};      \
    return &header;                                                                         \
  }                                                                                         \
  }                                                                                         \
  BOOST_DLL_ALIAS(featurelab_pack_entry_, featurelab_pack)                                  \
  static void featurelab_register_components_(::featurelab::PackBuilder& pack)
