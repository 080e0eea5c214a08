// The C interface between the `python` probe (this pack, which never links Python) and its bridge
// (bridge/python_bridge.cpp, compiled against Python's headers and loaded on first use). A plain C
// interface, so the pack loads anywhere (list, describe, validate) and Python is brought in only by a job that
// measures with it (plugins/python/README.md says how the interpreter gets into a worker).
#pragma once

#include <cstdint>

extern "C" {

// A matrix handed to Python as a read-only NumPy view (row-major, `rows` × `cols` values of `itemsize` bytes:
// 4 for float, 8 for double).
struct FeaturelabBridgeArray {
  const char* group;  // "params", "train", "test"
  const char* name;   // a block's name ("W"), or "X", "y"
  const void* data;
  std::int64_t rows;
  std::int64_t cols;
  std::int32_t itemsize;
  std::int32_t is_integer;  // labels
};

// What the function returned, recorded as a C++ probe's measurements would be.
struct FeaturelabBridgeResults {
  void* sink;
  void (*scalar)(void* sink, const char* name, double value);
  void (*table)(void* sink, const char* name, const double* values, std::int64_t rows, std::int64_t cols);
};

struct FeaturelabBridgeCall {
  const char* module;    // imported once, then cached
  const char* function;
  const char* path;      // prepended to sys.path before the import ("" for none)
  std::int64_t step;
  const FeaturelabBridgeArray* arrays;
  std::int64_t array_count;
  FeaturelabBridgeResults results;
  char* error;           // the Python traceback when the call fails
  std::int64_t error_size;
};

// 0 when the function ran and its results were recorded; otherwise `error` holds why (its traceback).
typedef int (*FeaturelabBridgeCallFn)(const FeaturelabBridgeCall* call);
int featurelab_python_call(const FeaturelabBridgeCall* call);
}
