// Flat parameter storage with named blocks; default optional model hooks.
#include <featurelab/error.hpp>
#include <featurelab/model.hpp>

#include <algorithm>
#include <limits>
#include <string>

namespace featurelab {

namespace {

// "model 'two-layer': " before a message about a model's size; nothing inside its constructor,
// where it has no registry name yet and the catalog's message names it.
std::string size_problem_of(const Model& model) {
  return model.name().empty() ? std::string() : "model '" + model.name() + "': ";
}

// The most parameters θ can hold: their bytes must fit in a ptrdiff_t, as every size and offset
// of an allocation must.
constexpr Index kMaxParameters = std::numeric_limits<Index>::max() / static_cast<Index>(sizeof(Scalar));

}  // namespace

std::string Model::described() const { return name().empty() ? "the model" : "model '" + name() + "'"; }

void Model::input_gradient(ConstMatRef, ConstMatRef, MatRef) {
  throw Error(described() + " does not provide input gradients, which attacks need; "
              "use a model that implements Model::input_gradient");
}

void Model::hook(const std::string& name, ConstMatRef, Mat&) {
  std::string known;
  for (const auto& h : hook_points()) known += (known.empty() ? "" : ", ") + h.name;
  throw Error(described() + " has no hook point '" + name + "'" +
              (known.empty() ? std::string(" (it has none)") : "; it has: " + known));
}

void Model::hook_backward(const std::string& name, ConstMatRef, ConstMatRef, VecRef) {
  throw Error(described() + " cannot backpropagate from its hook point '" + name +
              "', which a regularizer of features needs; use a model that implements Model::hook_backward "
              "(e.g. std two-layer, representation-theory linear-features)");
}

const ParamBlock* Model::find_block(const std::string& name) const {
  for (const auto& b : blocks_) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

MatMap Model::block(const std::string& name) {
  const ParamBlock* b = find_block(name);
  if (!b) throw Error(described() + " has no parameter block '" + name + "'");
  return MatMap(theta_.data() + b->offset, b->rows, b->cols);
}

ConstMatMap Model::block(const std::string& name) const {
  const ParamBlock* b = find_block(name);
  if (!b) throw Error(described() + " has no parameter block '" + name + "'");
  return ConstMatMap(theta_.data() + b->offset, b->rows, b->cols);
}

BlockHandle Model::declare_block(const std::string& name, Index rows, Index cols, bool trainable) {
  if (find_block(name)) throw Error(described() + " declares parameter block '" + name + "' twice");
  // Checked here, before anything is allocated: an overflowed rows × cols (width 2^62, dimension 3)
  // would allocate a small θ that the model then writes far past.
  const std::string block_of = size_problem_of(*this) + "block '" + name + "' of " + std::to_string(rows) + " × " +
                               std::to_string(cols) + " parameters";
  if (rows < 0 || cols < 0) throw Error(block_of + " has a negative size");
  Index size = 0;
  if (__builtin_mul_overflow(rows, cols, &size) || size > kMaxParameters) {
    throw Error(block_of + " overflows the largest parameter count (" + std::to_string(kMaxParameters) +
                "); the model is far too large: reduce its size (width, the data's dimension)");
  }
  ParamBlock block;
  block.name = name;
  block.rows = rows;
  block.cols = cols;
  block.trainable = trainable;
  blocks_.push_back(block);
  slot_.push_back(slot_.size());
  return BlockHandle(static_cast<int>(blocks_.size()) - 1);
}

void Model::frozen_gradient(const ParamBlock& b) const {
  throw Error(described() + ": block '" + b.name + "' is frozen, so the gradient has no place for it");
}

void Model::allocate_parameters() {
  // Trainable blocks first, so the optimizer's range is one contiguous head; handles follow their blocks.
  std::vector<ParamBlock> declared(blocks_.size());
  for (std::size_t id = 0; id < declared.size(); ++id) declared[id] = blocks_[slot_[id]];
  std::vector<std::size_t> order(declared.size());  // slot -> declaration id
  for (std::size_t id = 0; id < order.size(); ++id) order[id] = id;
  std::stable_partition(order.begin(), order.end(), [&declared](std::size_t id) { return declared[id].trainable; });
  for (std::size_t slot = 0; slot < order.size(); ++slot) {
    blocks_[slot] = declared[order[slot]];
    slot_[order[slot]] = slot;
  }
  Index offset = 0;
  trainable_ = 0;
  for (auto& b : blocks_) {
    b.offset = offset;
    // Each block's size fits (declare_block checked it); their sum, and its bytes, may not.
    if (__builtin_add_overflow(offset, b.size(), &offset) || offset > kMaxParameters) {
      throw Error(size_problem_of(*this) + "its blocks hold more parameters than the largest parameter count (" +
                  std::to_string(kMaxParameters) + ") with block '" + b.name + "' of " + std::to_string(b.rows) +
                  " × " + std::to_string(b.cols) + "; the model is far too large: reduce its size (width, the data's "
                  "dimension)");
    }
    if (b.trainable) trainable_ += b.size();
  }
  theta_.setZero(offset);
}

}  // namespace featurelab
