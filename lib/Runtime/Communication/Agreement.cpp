//===- Agreement.cpp - Ranks agree on a collective before data moves ------===//
//
// A collective whose ranks disagree moves the wrong bytes without an error:
// f32 on one rank and i32 on another reduces reinterpreted bits, SUM
// against MAX mixes, a short broadcast leaves stale values, an all-gather
// of unequal shapes reads past a buffer. So PyNative's collectives first
// all-gather a fixed-size description of each rank's call and compare.
// Every rank sees every description, so every rank raises the same error
// (none waits in a collective the others never enter). Compiled steps skip
// it: their calls come from one graph on every rank.
//
//===----------------------------------------------------------------------===//

#include "ms/Runtime/Communication/Communication.h"
#include "ms/Runtime/Memory/HostTensor.h"
#include "ms/Support/Error.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <string>
#include <vector>

using namespace ms::runtime;
using namespace ms::runtime::comm;

namespace {

/// The collectives that check, and what their argument is.
struct Kind {
  llvm::StringLiteral name;
  llvm::StringLiteral argument; ///< "" when the call has none
};
constexpr Kind kKinds[] = {
    {"all_reduce", "op"}, {"all_gather", ""}, {"broadcast", "root"}};

/// The description: kind, dtype, argument, rank, element count, and the
/// first kShownDims dims (the count covers the rest).
constexpr size_t kShownDims = 11;
using Description = std::array<int64_t, 5 + kShownDims>;

int64_t kindIndex(llvm::StringRef name) {
  for (auto [i, kind] : llvm::enumerate(kKinds))
    if (kind.name == name)
      return static_cast<int64_t>(i);
  return -1;
}

Description describe(const CollectiveCall &call) {
  Description d{};
  d[0] = kindIndex(call.name);
  d[1] = static_cast<int64_t>(call.dtype);
  d[2] = call.argument;
  d[3] = static_cast<int64_t>(call.shape.size());
  d[4] = 1;
  for (int64_t dim : call.shape)
    d[4] *= dim;
  for (size_t i = 0; i < call.shape.size() && i < kShownDims; ++i)
    d[5 + i] = call.shape[i];
  return d;
}

/// "all_reduce of f32[2, 3] with op sum": what a rank asked for, in words.
std::string spell(const Description &d) {
  if (d[0] < 0 || d[0] >= static_cast<int64_t>(std::size(kKinds)))
    return "another collective";
  const Kind &kind = kKinds[d[0]];
  int64_t shown = std::min<int64_t>(d[3], kShownDims);
  std::vector<int64_t> shape(d.begin() + 5, d.begin() + 5 + shown);
  std::string text = kind.name.str() + " of " +
                     dtypeName(static_cast<DType>(d[1])).str() +
                     shapeString(shape);
  if (kind.argument.empty())
    return text;
  std::string value = kind.argument == "op"
                          ? reduceOpName(static_cast<ReduceOp>(d[2])).str()
                          : std::to_string(d[2]);
  return text + " with " + kind.argument.str() + " " + value;
}

} // namespace

llvm::Error comm::checkRanksAgree(const CollectiveCall &call) {
  llvm::Expected<int> size = groupSize();
  if (!size)
    return size.takeError();
  llvm::Expected<int> me = rank();
  if (!me)
    return me.takeError();
  Description mine = describe(call);
  std::vector<Description> all(*size);
  if (llvm::Error error = allGather(mine.data(), all.data(), mine.size(),
                                    DType::I64))
    return error;
  for (int r = 1; r < *size; ++r)
    if (all[r] != all[0])
      return makeError(call.name + ": the ranks disagree: rank " +
                       llvm::Twine(r) + " asks for " + spell(all[r]) +
                       ", rank 0 for " + spell(all[0]) + " (this is rank " +
                       llvm::Twine(*me) + ")");
  return llvm::Error::success();
}
