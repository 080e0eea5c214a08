// A model's work buffer whose row count follows its input: 1000 rows a training step, then 50,000 and 10,000
// when a probe evaluates the training and test sets, then 1000 again.
//
// Why not a Mat resized each call: resizing to another size frees the storage and allocates it anew, and glibc
// serves a block above its mmap threshold (32 MB at most) from fresh pages the kernel must zero on first touch.
// feature-emergence's parity job (three 50,000 × 600 buffers) allocated 120 MB fifty times and spent 17 % of
// its time in the kernel's clear_page. A ScratchRows keeps the largest storage it was asked for and hands out
// its first rows, contiguous (row-major), aligned as a Mat's storage: the same values, written and read in the
// same order, as the Mat it replaces. The price: the largest buffers stay allocated for the model's life
// (the parity job's peak resident memory 0.63 → 0.86 GB), so a model whose largest input is near the
// machine's memory (a dataset of millions of rows) keeps resizing a Mat instead.
#pragma once

#include <featurelab/types.hpp>

#include <algorithm>

namespace featurelab {

class ScratchRows {
 public:
  // The first `rows` rows of a `cols`-wide buffer (contents unspecified until written); view() returns them
  // again until the next take(). The storage grows to the largest rows × cols taken and never shrinks.
  MatMap take(Index rows, Index cols) {
    if (rows * cols > storage_.size()) storage_.resize(rows * cols);
    rows_ = rows;
    cols_ = cols;
    return view();
  }
  MatMap view() { return MatMap(storage_.data(), rows_, cols_); }
  ConstMatMap view() const { return ConstMatMap(storage_.data(), rows_, cols_); }
  Index rows() const { return rows_; }
  Index cols() const { return cols_; }

 private:
  Vec storage_;
  Index rows_ = 0, cols_ = 0;
};

}  // namespace featurelab
