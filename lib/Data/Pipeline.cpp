//===- Pipeline.cpp - Dataset pipeline nodes ------------------------------===//

#include "ms/Data/Pipeline.h"

#include "ms/Runtime/Formats/Idx.h"
#include "ms/Support/Error.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <optional>

using namespace ms::data;
using llvm::Twine;

using ms::makeError;

namespace {

/// A generator for (seed, epoch, salt): different nodes of one pipeline and
/// different epochs draw independent streams.
Rng rngFor(uint64_t seed, uint64_t epoch, uint64_t salt) {
  std::seed_seq seq{uint32_t(seed), uint32_t(seed >> 32), uint32_t(epoch),
                    uint32_t(epoch >> 32), uint32_t(salt)};
  return Rng(seq);
}

//===----------------------------------------------------------------------===//
// Sources
//===----------------------------------------------------------------------===//

class IndexedSource : public Node {
public:
  IndexedSource(int64_t numRows, RowFn rowAt, std::vector<std::string> cols,
                SamplerOptions opts, bool python)
      : numRows(numRows), rowAt(std::move(rowAt)), opts(opts),
        python(python) {
    columnNames = std::move(cols);
  }
  llvm::Error reset(uint64_t epoch) override {
    order = sampleIndices(numRows, opts, epoch);
    position = 0;
    return llvm::Error::success();
  }
  llvm::Expected<bool> next(Row &row) override {
    if (position >= order.size())
      return false;
    auto got = rowAt(order[position++]);
    if (!got)
      return got.takeError();
    row = std::move(*got);
    return true;
  }
  int64_t size() const override { return sampledCount(numRows, opts); }
  bool callsPython() const override { return python; }

private:
  int64_t numRows;
  RowFn rowAt;
  SamplerOptions opts;
  bool python;
  std::vector<int64_t> order;
  size_t position = 0;
};

class IterableSource : public Node {
public:
  IterableSource(std::function<llvm::Error()> start,
                 std::function<llvm::Expected<bool>(Row &)> pull,
                 std::vector<std::string> cols, int64_t numSamples,
                 bool python)
      : start(std::move(start)), pull(std::move(pull)),
        numSamples(numSamples), python(python) {
    columnNames = std::move(cols);
  }
  llvm::Error reset(uint64_t) override {
    produced = 0;
    return start();
  }
  llvm::Expected<bool> next(Row &row) override {
    if (numSamples >= 0 && produced >= numSamples)
      return false;
    auto more = pull(row);
    if (more && *more)
      ++produced;
    return more;
  }
  int64_t size() const override { return -1; }
  bool callsPython() const override { return python; }

private:
  std::function<llvm::Error()> start;
  std::function<llvm::Expected<bool>(Row &)> pull;
  int64_t numSamples;
  bool python;
  int64_t produced = 0;
};

//===----------------------------------------------------------------------===//
// MNIST
//===----------------------------------------------------------------------===//

/// The first of the accepted spellings of `stem` ("train-images", "idx3")
/// that exists in `dir`, or "".
std::string findFile(const std::string &dir, const std::string &stem,
                     const std::string &idx) {
  for (const char *sep : {"-", "."})
    for (const char *ext : {"", ".gz"}) {
      llvm::SmallString<256> path(dir);
      llvm::sys::path::append(path, stem + sep + idx + "-ubyte" + ext);
      if (llvm::sys::fs::is_regular_file(path))
        return std::string(path);
    }
  return "";
}

llvm::Expected<ms::runtime::IdxArray>
readSplitFile(const std::string &dir, const std::string &stem,
              const std::string &idx) {
  std::string path = findFile(dir, stem, idx);
  if (path.empty())
    return makeError(dir + ": no " + stem + " file (looked for " + stem +
                     "-" + idx + "-ubyte, " + stem + "." + idx +
                     "-ubyte, each also with .gz)");
  return ms::runtime::readIdx(path);
}

class MnistSource : public Node {
public:
  MnistSource(std::shared_ptr<const MnistData> data, SamplerOptions opts)
      : data(std::move(data)), opts(opts) {
    columnNames = {"image", "label"};
  }
  llvm::Error reset(uint64_t epoch) override {
    order = sampleIndices(data->numRows(), opts, epoch);
    position = 0;
    return llvm::Error::success();
  }
  llvm::Expected<bool> next(Row &row) override {
    if (position >= order.size())
      return false;
    int64_t pixels = data->rows * data->cols;
    // Shuffled rows are scattered over the file data: fetch a later row's
    // pixels into the cache while this one is processed.
    if (position + kPrefetchDistance < order.size())
      prefetchImage(order[position + kPrefetchDistance], pixels);
    int64_t index = order[position++];
    size_t split = 0;
    while (index >= data->counts[split])
      index -= data->counts[split++];
    row.resize(2);
    // The image is a view of the decoded file: no copy.
    row[0] = Array::view(ElemType::U8, {data->rows, data->cols, 1},
                         data->owners[split],
                         data->images[split] + index * pixels);
    Array label = Array::allocate(ElemType::U32, {});
    *label.mutableData<uint32_t>() = data->labels[split][index];
    row[1] = std::move(label);
    return true;
  }
  int64_t size() const override {
    return sampledCount(data->numRows(), opts);
  }
  bool callsPython() const override { return false; }

private:
  static constexpr size_t kPrefetchDistance = 4;
  void prefetchImage(int64_t index, int64_t pixels) const {
    size_t split = 0;
    while (index >= data->counts[split])
      index -= data->counts[split++];
    const uint8_t *p = data->images[split] + index * pixels;
    for (int64_t offset = 0; offset < pixels; offset += 64)
      __builtin_prefetch(p + offset);
  }

  std::shared_ptr<const MnistData> data;
  SamplerOptions opts;
  std::vector<int64_t> order;
  size_t position = 0;
};

//===----------------------------------------------------------------------===//
// Map
//===----------------------------------------------------------------------===//

/// Whether `op` maps each element on its own, the same for every position
/// and channel, to a float32 (or the same) value.
bool isPointwise(const TensorOp &op) {
  switch (op.kind) {
  case OpKind::Rescale:
    return true;
  case OpKind::Normalize:
    return op.mean.size() == 1;
  case OpKind::TypeCast:
    return op.castTo == ElemType::F32;
  default:
    return false;
  }
}

/// Steps [begin, end) of a map, all pointwise, applied to uint8 data as a
/// table of their results on 0..255. The table comes from applyOp itself,
/// so the values are exactly those of applying the ops one by one.
struct PointwiseRun {
  size_t begin = 0, end = 0;
  ElemType resultType = ElemType::U8;
  std::vector<uint8_t> table; ///< 256 results of resultType.

  Array apply(const Array &in) const {
    Array out = Array::allocate(resultType, in.shape);
    const uint8_t *src = in.data<uint8_t>();
    int64_t n = in.numElements();
    if (resultType == ElemType::F32) {
      const float *t = reinterpret_cast<const float *>(table.data());
      float *dst = out.mutableData<float>();
      for (int64_t i = 0; i < n; ++i)
        dst[i] = t[src[i]];
    } else {
      size_t size = elemSize(resultType);
      uint8_t *dst = out.mutableData<uint8_t>();
      for (int64_t i = 0; i < n; ++i)
        std::memcpy(dst + i * size, table.data() + src[i] * size, size);
    }
    return out;
  }
};

class MapNode : public Node {
public:
  MapNode(NodePtr child, std::vector<MapStep> steps,
          std::vector<size_t> inputs, std::vector<std::string> outputs,
          uint64_t seed)
      : child(std::move(child)), steps(std::move(steps)),
        inputs(std::move(inputs)), seed(seed) {
    // The outputs take the place of the first input; other inputs go.
    const std::vector<std::string> &in = this->child->columns();
    size_t first = this->inputs.front();
    for (size_t i = 0; i < in.size(); ++i) {
      if (i == first)
        columnNames.insert(columnNames.end(), outputs.begin(), outputs.end());
      if (!llvm::is_contained(this->inputs, i))
        columnNames.push_back(in[i]);
    }
    numOutputs = outputs.size();
    python = this->child->callsPython() ||
             llvm::any_of(this->steps, [](const MapStep &s) {
               return bool(s.python);
             });
  }
  llvm::Error reset(uint64_t epoch) override {
    rng = rngFor(seed, epoch, 0x6d6170);
    return child->reset(epoch);
  }
  llvm::Expected<bool> next(Row &row) override {
    auto more = child->next(row);
    if (!more || !*more)
      return more;
    values.clear();
    for (size_t i : inputs)
      values.push_back(std::move(row[i]));
    for (size_t s = 0; s < steps.size(); ++s) {
      const MapStep &step = steps[s];
      if (values.size() == 1 && values[0].type == ElemType::U8) {
        // A run of pointwise ops on uint8 data is a function of 256 values.
        if (const PointwiseRun *run = pointwiseRunAt(s, values[0])) {
          values[0] = run->apply(values[0]);
          s = run->end - 1;
          continue;
        }
      }
      if (step.python) {
        auto out = step.python(std::move(values));
        if (!out)
          return out.takeError();
        values = std::move(*out);
        continue;
      }
      if (values.size() != 1)
        return makeError("map: " + step.name + " takes one column, got " +
                         Twine(values.size()));
      auto out = applyOp(step.op, values[0], rng);
      if (!out)
        return makeError("map: " + llvm::toString(out.takeError()) +
                         " (column '" + child->columns()[inputs[0]] + "')");
      values[0] = std::move(*out);
    }
    if (values.size() != numOutputs)
      return makeError("map: the operations give " + Twine(values.size()) +
                       " columns but output_columns names " +
                       Twine(numOutputs));
    if (inputs.size() == 1 && numOutputs == 1) { // The common case.
      row[inputs[0]] = std::move(values[0]);
      return true;
    }
    Row result;
    for (size_t i = 0; i < row.size(); ++i) {
      if (i == inputs.front())
        for (Array &v : values)
          result.push_back(std::move(v));
      if (!llvm::is_contained(inputs, i))
        result.push_back(std::move(row[i]));
    }
    row = std::move(result);
    return true;
  }
  int64_t size() const override { return child->size(); }
  bool callsPython() const override { return python; }

private:
  /// The pointwise run starting at step `s` for uint8 image `in`, if there
  /// is one of at least two steps (one step is as fast done directly) and
  /// `in` is an image every op of it accepts.
  const PointwiseRun *pointwiseRunAt(size_t s, const Array &in) {
    if (in.rank() != 2 && in.rank() != 3)
      return nullptr;
    if (s >= runAt.size())
      runAt.assign(steps.size(), std::nullopt);
    std::optional<PointwiseRun> &run = runAt[s];
    if (!run) {
      run.emplace();
      run->begin = run->end = s;
      while (run->end < steps.size() && !steps[run->end].python &&
             isPointwise(steps[run->end].op))
        ++run->end;
      if (run->end - run->begin >= 2) {
        Array probe = Array::allocate(ElemType::U8, {16, 16});
        for (int i = 0; i < 256; ++i)
          probe.mutableData<uint8_t>()[i] = uint8_t(i);
        Rng unused;
        for (size_t k = run->begin; k < run->end && probe.bytes; ++k) {
          auto out = applyOp(steps[k].op, probe, unused);
          if (!out) {
            llvm::consumeError(out.takeError());
            probe = Array();
          } else {
            probe = std::move(*out);
          }
        }
        if (probe.bytes) {
          run->resultType = probe.type;
          run->table.assign(probe.bytes, probe.bytes + probe.byteSize());
        }
      }
    }
    return run->table.empty() ? nullptr : &*run;
  }

  NodePtr child;
  std::vector<MapStep> steps;
  std::vector<std::optional<PointwiseRun>> runAt;
  Row values; ///< The columns being mapped (kept to reuse its storage).
  std::vector<size_t> inputs;
  size_t numOutputs = 0;
  uint64_t seed;
  bool python = false;
  Rng rng;
};

//===----------------------------------------------------------------------===//
// Batch, shuffle, repeat, take, skip
//===----------------------------------------------------------------------===//

class BatchNode : public Node {
public:
  BatchNode(NodePtr child, int64_t batchSize, bool dropRemainder)
      : child(std::move(child)), batchSize(batchSize),
        dropRemainder(dropRemainder) {
    columnNames = this->child->columns();
  }
  llvm::Error reset(uint64_t epoch) override { return child->reset(epoch); }
  llvm::Expected<bool> next(Row &row) override {
    rows.clear();
    Row r;
    while (int64_t(rows.size()) < batchSize) {
      auto more = child->next(r);
      if (!more)
        return more.takeError();
      if (!*more)
        break;
      rows.push_back(std::move(r));
    }
    if (rows.empty() || (dropRemainder && int64_t(rows.size()) < batchSize))
      return false;
    row.clear();
    for (size_t c = 0; c < rows[0].size(); ++c) {
      const Array &first = rows[0][c];
      llvm::SmallVector<int64_t, 4> shape{int64_t(rows.size())};
      shape.append(first.shape.begin(), first.shape.end());
      Array out = Array::allocate(first.type, shape);
      size_t bytes = first.byteSize();
      uint8_t *dst = out.mutableData<uint8_t>();
      for (size_t i = 0; i < rows.size(); ++i) {
        const Array &a = rows[i][c];
        if (a.type != first.type || a.shape != first.shape)
          return makeError("batch: column '" + columnNames[c] +
                           "' has rows of different types or shapes (" +
                           first.typeStr() + " and " + a.typeStr() +
                           "); batch needs equal ones");
        std::memcpy(dst + i * bytes, a.bytes, bytes);
      }
      row.push_back(std::move(out));
    }
    return true;
  }
  int64_t size() const override {
    int64_t n = child->size();
    if (n < 0)
      return n;
    return dropRemainder ? n / batchSize : (n + batchSize - 1) / batchSize;
  }
  bool callsPython() const override { return child->callsPython(); }

private:
  NodePtr child;
  int64_t batchSize;
  bool dropRemainder;
  std::vector<Row> rows;
};

class ShuffleNode : public Node {
public:
  ShuffleNode(NodePtr child, int64_t bufferSize, uint64_t seed)
      : child(std::move(child)), bufferSize(bufferSize), seed(seed) {
    columnNames = this->child->columns();
  }
  llvm::Error reset(uint64_t epoch) override {
    rng = rngFor(seed, epoch, 0x73687566);
    buffer.clear();
    exhausted = false;
    return child->reset(epoch);
  }
  llvm::Expected<bool> next(Row &row) override {
    while (!exhausted && int64_t(buffer.size()) < bufferSize) {
      Row r;
      auto more = child->next(r);
      if (!more)
        return more.takeError();
      if (!*more)
        exhausted = true;
      else
        buffer.push_back(std::move(r));
    }
    if (buffer.empty())
      return false;
    size_t pick =
        std::uniform_int_distribution<size_t>(0, buffer.size() - 1)(rng);
    row = std::move(buffer[pick]);
    buffer[pick] = std::move(buffer.back());
    buffer.pop_back();
    return true;
  }
  int64_t size() const override { return child->size(); }
  bool callsPython() const override { return child->callsPython(); }

private:
  NodePtr child;
  int64_t bufferSize;
  uint64_t seed;
  Rng rng;
  std::vector<Row> buffer;
  bool exhausted = false;
};

class RepeatNode : public Node {
public:
  RepeatNode(NodePtr child, int64_t count)
      : child(std::move(child)), count(count) {
    columnNames = this->child->columns();
  }
  llvm::Error reset(uint64_t epoch) override {
    this->epoch = epoch;
    done = 0;
    return child->reset(childEpoch());
  }
  llvm::Expected<bool> next(Row &row) override {
    while (count < 0 || done < count) {
      auto more = child->next(row);
      if (!more || *more)
        return more;
      ++done;
      if (count >= 0 && done >= count)
        break;
      if (llvm::Error e = child->reset(childEpoch()))
        return std::move(e);
    }
    return false;
  }
  int64_t size() const override {
    int64_t n = child->size();
    return n < 0 || count < 0 ? -1 : n * count;
  }
  bool callsPython() const override { return child->callsPython(); }

private:
  /// Every pass over the child gets its own epoch number, so shuffles and
  /// random ops differ from pass to pass.
  uint64_t childEpoch() const { return (epoch << 24) + done; }
  NodePtr child;
  int64_t count;
  uint64_t epoch = 0;
  int64_t done = 0;
};

class TakeSkipNode : public Node {
public:
  TakeSkipNode(NodePtr child, int64_t count, bool take)
      : child(std::move(child)), count(count), take(take) {
    columnNames = this->child->columns();
  }
  llvm::Error reset(uint64_t epoch) override {
    seen = 0;
    return child->reset(epoch);
  }
  llvm::Expected<bool> next(Row &row) override {
    if (take && seen >= count)
      return false;
    while (!take && seen < count) {
      auto more = child->next(row);
      if (!more || !*more)
        return more;
      ++seen;
    }
    auto more = child->next(row);
    if (take && more && *more)
      ++seen;
    return more;
  }
  int64_t size() const override {
    int64_t n = child->size();
    if (n < 0)
      return take ? -1 : -1;
    return take ? std::min(n, count) : std::max<int64_t>(0, n - count);
  }
  bool callsPython() const override { return child->callsPython(); }

private:
  NodePtr child;
  int64_t count;
  bool take;
  int64_t seen = 0;
};

} // namespace

Node::~Node() = default;

int64_t ms::data::sampledCount(int64_t numRows, const SamplerOptions &opts) {
  int64_t n = numRows;
  if (opts.numShards > 1)
    n = (numRows + opts.numShards - 1) / opts.numShards;
  if (opts.numSamples >= 0)
    n = std::min(n, opts.numSamples);
  return numRows == 0 ? 0 : n;
}

std::vector<int64_t> ms::data::sampleIndices(int64_t numRows,
                                             const SamplerOptions &opts,
                                             uint64_t epoch) {
  std::vector<int64_t> all(numRows);
  std::iota(all.begin(), all.end(), 0);
  if (opts.shuffle) {
    Rng rng = rngFor(opts.seed, epoch, 0x73616d70);
    std::shuffle(all.begin(), all.end(), rng);
  }
  int64_t count = sampledCount(numRows, opts);
  if (opts.numShards <= 1) {
    all.resize(count);
    return all;
  }
  std::vector<int64_t> mine(count);
  for (int64_t j = 0; j < count; ++j)
    mine[j] = all[(opts.shardId + j * opts.numShards) % numRows];
  return mine;
}

NodePtr ms::data::makeIndexedSource(int64_t numRows, RowFn rowAt,
                                    std::vector<std::string> columns,
                                    SamplerOptions opts, bool callsPython) {
  return std::make_shared<IndexedSource>(numRows, std::move(rowAt),
                                         std::move(columns), opts,
                                         callsPython);
}

NodePtr ms::data::makeIterableSource(
    std::function<llvm::Error()> start,
    std::function<llvm::Expected<bool>(Row &)> pull,
    std::vector<std::string> columns, int64_t numSamples, bool callsPython) {
  return std::make_shared<IterableSource>(std::move(start), std::move(pull),
                                          std::move(columns), numSamples,
                                          callsPython);
}

int64_t MnistData::numRows() const {
  return std::accumulate(counts.begin(), counts.end(), int64_t(0));
}

llvm::Expected<std::shared_ptr<const MnistData>>
ms::data::readMnist(const std::string &dir, const std::string &usage) {
  if (usage != "train" && usage != "test" && usage != "all")
    return makeError("usage must be 'train', 'test' or 'all', got '" + usage +
                     "'");
  if (!llvm::sys::fs::is_directory(dir))
    return makeError(dir + ": no such directory");
  auto data = std::make_shared<MnistData>();
  std::vector<std::string> prefixes;
  if (usage != "test")
    prefixes.push_back("train");
  if (usage != "train")
    prefixes.push_back("t10k");
  for (const std::string &prefix : prefixes) {
    // As MindSpore's MnistDataset: 'all' reads the splits that are there,
    // so the Quick Start's MNIST_Data/train (train files only) loads.
    if (usage == "all" && findFile(dir, prefix + "-images", "idx3").empty() &&
        findFile(dir, prefix + "-labels", "idx1").empty())
      continue;
    auto images = readSplitFile(dir, prefix + "-images", "idx3");
    if (!images)
      return images.takeError();
    auto labels = readSplitFile(dir, prefix + "-labels", "idx1");
    if (!labels)
      return labels.takeError();
    if (images->type != ms::runtime::IdxType::U8 || images->dims.size() != 3)
      return makeError(images->path + ": expected uint8 images [N, H, W]");
    if (labels->type != ms::runtime::IdxType::U8 || labels->dims.size() != 1)
      return makeError(labels->path + ": expected uint8 labels [N]");
    if (images->dims[0] != labels->dims[0])
      return makeError(labels->path + ": " + Twine(labels->dims[0]) +
                       " labels for " + Twine(images->dims[0]) +
                       " images in " + images->path);
    if (data->counts.empty()) {
      data->rows = images->dims[1];
      data->cols = images->dims[2];
    } else if (data->rows != images->dims[1] ||
               data->cols != images->dims[2]) {
      return makeError(images->path + ": images of another size than the "
                       "train images");
    }
    auto imageFile =
        std::make_shared<ms::runtime::IdxArray>(std::move(*images));
    auto labelFile =
        std::make_shared<ms::runtime::IdxArray>(std::move(*labels));
    data->counts.push_back(imageFile->dims[0]);
    data->images.push_back(imageFile->data.data());
    data->labels.push_back(labelFile->data.data());
    data->owners.push_back(imageFile);
    data->labelOwners.push_back(labelFile);
  }
  if (data->counts.empty())
    return makeError(dir + ": no MNIST files (looked for train-images-idx3-"
                     "ubyte and t10k-images-idx3-ubyte, also with '.' for "
                     "the first '-' and with .gz)");
  return std::shared_ptr<const MnistData>(std::move(data));
}

NodePtr ms::data::makeMnistSource(std::shared_ptr<const MnistData> data,
                                  SamplerOptions opts) {
  return std::make_shared<MnistSource>(std::move(data), opts);
}

llvm::Expected<NodePtr>
ms::data::makeMap(NodePtr child, std::vector<MapStep> steps,
                  std::vector<std::string> inputColumns,
                  std::vector<std::string> outputColumns, uint64_t seed) {
  const std::vector<std::string> &have = child->columns();
  if (inputColumns.empty())
    inputColumns = {have.front()}; // MindSpore: the first column.
  std::vector<size_t> inputs;
  for (const std::string &name : inputColumns) {
    llvm::Expected<size_t> index = columnIndex(*child, name, "map: input");
    if (!index)
      return index.takeError();
    inputs.push_back(*index);
  }
  if (outputColumns.empty())
    outputColumns = inputColumns;
  return NodePtr(std::make_shared<MapNode>(std::move(child), std::move(steps),
                                           std::move(inputs),
                                           std::move(outputColumns), seed));
}

NodePtr ms::data::makeBatch(NodePtr child, int64_t batchSize,
                            bool dropRemainder) {
  return std::make_shared<BatchNode>(std::move(child), batchSize,
                                     dropRemainder);
}

NodePtr ms::data::makeShuffle(NodePtr child, int64_t bufferSize,
                              uint64_t seed) {
  return std::make_shared<ShuffleNode>(std::move(child), bufferSize, seed);
}

NodePtr ms::data::makeRepeat(NodePtr child, int64_t count) {
  return std::make_shared<RepeatNode>(std::move(child), count);
}

NodePtr ms::data::makeTake(NodePtr child, int64_t count) {
  return std::make_shared<TakeSkipNode>(std::move(child), count, true);
}

NodePtr ms::data::makeSkip(NodePtr child, int64_t count) {
  return std::make_shared<TakeSkipNode>(std::move(child), count, false);
}
