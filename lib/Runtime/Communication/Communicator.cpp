//===- Communicator.cpp - What the collectives know without MPI -----------===//
//
// The one Communicator, its settings and statistics, ReduceOp's names, the
// deterministic reduction tree and the OpenMPI defaults: the same whether
// or not ms is built with MPI.
//
//===----------------------------------------------------------------------===//

#include "Communicator.h"

#include "llvm/ADT/StringSwitch.h"

#include <cstdlib>

using namespace ms::runtime;
using namespace ms::runtime::comm;

std::optional<ReduceOp> comm::parseReduceOp(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<ReduceOp>>(name.lower())
      .Case("sum", ReduceOp::Sum)
      .Case("max", ReduceOp::Max)
      .Case("min", ReduceOp::Min)
      .Case("prod", ReduceOp::Prod)
      .Default(std::nullopt);
}

llvm::StringRef comm::reduceOpName(ReduceOp op) {
  switch (op) {
  case ReduceOp::Sum:
    return "sum";
  case ReduceOp::Max:
    return "max";
  case ReduceOp::Min:
    return "min";
  case ReduceOp::Prod:
    return "prod";
  }
  return "?";
}

double comm::timeoutSeconds() {
  if (const char *text = std::getenv("MS_COMM_TIMEOUT")) {
    char *end = nullptr;
    double value = std::strtod(text, &end);
    if (end != text && *end == '\0' && value > 0)
      return value;
  }
  return 300;
}

llvm::ArrayRef<EnvironmentDefault> comm::mpiDefaults() {
  // See the header.
  static const EnvironmentDefault defaults[] = {
      {"OMPI_MCA_btl_vader_single_copy_mechanism", "none"},
      {"OMPI_MCA_btl_vader_max_send_size", "131072"},
      {"OMPI_MCA_coll_libnbc_iallreduce_algorithm", "1"}};
  return defaults;
}

Stats comm::stats() { return detail::theCommunicator.stats; }
void comm::resetStats() { detail::theCommunicator.stats = Stats(); }

void comm::setDeterministic(bool on) {
  detail::theCommunicator.deterministic.store(on);
}
bool comm::isDeterministic() {
  return detail::theCommunicator.deterministic.load();
}

/// Rows `first` and `first + step` of `rows` (each `count` elements of T):
/// the first becomes their sum or product.
template <typename T>
static void combineRows(char *rows, int64_t count, int first, int step,
                        ReduceOp op) {
  T *a = reinterpret_cast<T *>(rows) + first * count;
  const T *b = reinterpret_cast<const T *>(rows) + (first + step) * count;
  if (op == ReduceOp::Sum)
    for (int64_t i = 0; i < count; ++i)
      a[i] = a[i] + b[i];
  else
    for (int64_t i = 0; i < count; ++i)
      a[i] = a[i] * b[i];
}

void comm::reduceRowsAsTree(void *rowsData, int64_t count, int size,
                            DType dtype, ReduceOp op) {
  char *rows = static_cast<char *>(rowsData);
  for (int step = 1; step < size; step *= 2)
    for (int first = 0; first + step < size; first += 2 * step) {
      if (dtype == DType::F32)
        combineRows<float>(rows, count, first, step, op);
      else
        combineRows<double>(rows, count, first, step, op);
    }
}
