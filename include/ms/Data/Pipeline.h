//===- Pipeline.h - Dataset pipeline nodes ----------------------*- C++ -*-===//
//
// A dataset is a chain of nodes pulled one row at a time: a source, then
// map / batch / shuffle / repeat / take / skip, as mindspore.dataset builds
// them. Nodes are made fresh for each iterator, so they hold iteration
// state; what is expensive to make (the decoded IDX files) is shared.
// Python sources and Python map operations come in as callbacks; a node
// that calls one says so (callsPython), and such a pipeline runs on the
// consumer's thread.
//
//===----------------------------------------------------------------------===//

#ifndef MS_DATA_PIPELINE_H
#define MS_DATA_PIPELINE_H

#include "ms/Data/Array.h"
#include "ms/Data/Transforms.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ms {
namespace data {

class Node {
public:
  virtual ~Node();
  /// Starts epoch `epoch` (0, 1, ...); called before the first next() of
  /// every epoch. Random choices depend on the seed and the epoch only.
  virtual llvm::Error reset(uint64_t epoch) = 0;
  /// The next row in `row`, or false at the end of the epoch.
  virtual llvm::Expected<bool> next(Row &row) = 0;
  /// Rows per epoch, or -1 when only iterating can tell (an iterable
  /// Python source) or it never ends (repeat forever).
  virtual int64_t size() const = 0;
  /// True if this node or one below calls back into Python.
  virtual bool callsPython() const = 0;

  const std::vector<std::string> &columns() const { return columnNames; }

protected:
  std::vector<std::string> columnNames;
};

using NodePtr = std::shared_ptr<Node>;

/// How a random-access source picks its rows each epoch (MindSpore's
/// RandomSampler / SequentialSampler / DistributedSampler).
struct SamplerOptions {
  bool shuffle = false;
  int64_t numSamples = -1; ///< At most this many (per shard); -1: all.
  int64_t numShards = 1;
  int64_t shardId = 0;
  uint64_t seed = 0;
};

/// The source row indices of `epoch` for a source of `numRows` rows: a
/// permutation of all rows (when shuffling, the same on every shard), of
/// which shard k takes positions k, k + numShards, ..., wrapping around so
/// that every shard gets ceil(numRows / numShards) rows.
std::vector<int64_t> sampleIndices(int64_t numRows, const SamplerOptions &opts,
                                   uint64_t epoch);
/// How many indices sampleIndices gives per epoch.
int64_t sampledCount(int64_t numRows, const SamplerOptions &opts);

/// Row `index` of a random-access source.
using RowFn = std::function<llvm::Expected<Row>(int64_t index)>;

/// A random-access source of `numRows` rows.
NodePtr makeIndexedSource(int64_t numRows, RowFn rowAt,
                          std::vector<std::string> columns,
                          SamplerOptions opts, bool callsPython);

/// An iterable source: `start` begins an epoch, `pull` gives the next row
/// or false at its end. At most `numSamples` rows per epoch (-1: all).
NodePtr makeIterableSource(std::function<llvm::Error()> start,
                           std::function<llvm::Expected<bool>(Row &)> pull,
                           std::vector<std::string> columns,
                           int64_t numSamples, bool callsPython);

/// The decoded files of an MNIST-format directory, shared by every iterator.
struct MnistData {
  /// Images [N, H, W] uint8 and labels [N] uint8, train then test.
  /// The decoded image and label files of each split (train, test).
  std::vector<std::shared_ptr<const void>> owners, labelOwners;
  std::vector<const uint8_t *> images, labels;
  std::vector<int64_t> counts;
  int64_t rows = 0, cols = 0;
  int64_t numRows() const;
};

/// Reads `usage` ("train", "test" or "all") from `dir`: files
/// train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte
/// and t10k-labels-idx1-ubyte, each also accepted with ".gz" (gzip is told
/// by its magic bytes) and with "-idx3-ubyte" spelled ".idx3-ubyte".
llvm::Expected<std::shared_ptr<const MnistData>>
readMnist(const std::string &dir, const std::string &usage);

/// Columns "image" (uint8 [H, W, 1]) and "label" (uint32 scalar).
NodePtr makeMnistSource(std::shared_ptr<const MnistData> data,
                        SamplerOptions opts);

/// A Python operation of a map: the input columns' arrays to its outputs.
using PyOpFn = std::function<llvm::Expected<Row>(Row)>;

/// One step of a map: a built-in op or a Python callable.
struct MapStep {
  TensorOp op;
  PyOpFn python; ///< Set for a Python step.
  std::string name;
};

/// Applies `steps` in order to the columns `inputColumns`; the results
/// become `outputColumns` (default: the input names), at the place of the
/// first input column. `seed` drives the random built-in ops.
llvm::Expected<NodePtr> makeMap(NodePtr child, std::vector<MapStep> steps,
                                std::vector<std::string> inputColumns,
                                std::vector<std::string> outputColumns,
                                uint64_t seed);

/// Stacks `batchSize` rows into one (a new leading dim per column); the last
/// short batch is kept unless `dropRemainder`.
NodePtr makeBatch(NodePtr child, int64_t batchSize, bool dropRemainder);

/// MindSpore's buffered shuffle: a buffer of `bufferSize` rows, from which
/// a random row is emitted and replaced by the next input row.
NodePtr makeShuffle(NodePtr child, int64_t bufferSize, uint64_t seed);

/// The child's epoch `count` times (-1: forever).
NodePtr makeRepeat(NodePtr child, int64_t count);
/// The first `count` rows.
NodePtr makeTake(NodePtr child, int64_t count);
/// All but the first `count` rows.
NodePtr makeSkip(NodePtr child, int64_t count);

/// The index of column `name` of `node`, or an error "<op> column 'name'
/// is not in the dataset (columns: ...)".
llvm::Expected<size_t> columnIndex(const Node &node, llvm::StringRef name,
                                   llvm::StringRef op);

/// The columns `columns` of each row, in that order (project).
llvm::Expected<NodePtr> makeProject(NodePtr child,
                                    std::vector<std::string> columns);
/// The same rows with columns `inputColumns` named `outputColumns`.
llvm::Expected<NodePtr> makeRename(NodePtr child,
                                   std::vector<std::string> inputColumns,
                                   std::vector<std::string> outputColumns);
/// Each child's row side by side, their columns in order (their names must
/// differ); an epoch ends with the shortest child's.
llvm::Expected<NodePtr> makeZip(std::vector<NodePtr> children);
/// The rows of each child in turn (their columns must be the same).
llvm::Expected<NodePtr> makeConcat(std::vector<NodePtr> children);

} // namespace data
} // namespace ms

#endif // MS_DATA_PIPELINE_H
