// A probe measures the model and data at chosen steps: named scalars and named tables.
#pragma once

#include <featurelab/attack.hpp>
#include <featurelab/distribution.hpp>
#include <featurelab/loss.hpp>

#include <string>
#include <utility>
#include <vector>

namespace featurelab {

struct NamedAttack {
  std::string name;
  Attack* attack = nullptr;
};

struct ProbeInput {
  Model& model;
  Loss& loss;
  const Dataset& train;
  const Dataset& test;
  const FeatureSet& features;
  const std::vector<NamedAttack>& attacks;
  Index step;
};

struct Table {
  MatD values;
  std::vector<std::string> row_names;  // may be empty: rows numbered
  std::vector<std::string> col_names;  // may be empty: columns numbered
};

class Measurements {
 public:
  void scalar(const std::string& name, double value) { scalars_.emplace_back(name, value); }
  void table(const std::string& name, Table table) { tables_.emplace_back(name, std::move(table)); }

  const std::vector<std::pair<std::string, double>>& scalars() const { return scalars_; }
  const std::vector<std::pair<std::string, Table>>& tables() const { return tables_; }
  void clear() { scalars_.clear(); tables_.clear(); }

 private:
  std::vector<std::pair<std::string, double>> scalars_;
  std::vector<std::pair<std::string, Table>> tables_;
};

class Probe : public Component {
 public:
  static constexpr Kind kind_id = Kind::Probe;
  static constexpr const char* interface_id = "featurelab.probe/1";

  virtual void measure(const ProbeInput& in, Measurements& out) = 0;
};

}  // namespace featurelab
