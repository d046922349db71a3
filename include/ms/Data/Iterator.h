//===- Iterator.h - Running a dataset pipeline ------------------*- C++ -*-===//
//
// Runs a pipeline for a number of epochs and hands its rows to the consumer.
// A pipeline without Python callbacks runs on a background thread that
// keeps up to `depth` rows ready (a bounded queue); the destructor stops
// and joins it, whatever it is doing. An error in the pipeline reaches the
// consumer at the row where it happened, once; the pipeline then stops.
//
//===----------------------------------------------------------------------===//

#ifndef MS_DATA_ITERATOR_H
#define MS_DATA_ITERATOR_H

#include "ms/Data/Pipeline.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace ms {
namespace data {

class Iterator {
public:
  /// `numEpochs` < 0: epochs without end. `prefetch`: use the background
  /// thread (only allowed when !root->callsPython()).
  Iterator(NodePtr root, int64_t numEpochs, bool prefetch, size_t depth = 8);
  ~Iterator();
  Iterator(const Iterator &) = delete;
  Iterator &operator=(const Iterator &) = delete;

  /// The next row of the current epoch, or false at its end; the next call
  /// then starts the next epoch, if any is left (else false again).
  llvm::Expected<bool> next(Row &row);
  /// True once every epoch has been consumed.
  bool finished() const { return done; }
  bool prefetching() const { return worker.joinable(); }

private:
  enum class Kind { Row, EndOfEpoch, Error, Finished };
  struct Item {
    Kind kind;
    Row row;
    std::string error;
  };
  /// Produces the next item on the calling thread.
  Item produce();
  void work();

  NodePtr root;
  int64_t numEpochs;
  uint64_t epoch = 0;
  bool started = false, done = false, failed = false;

  size_t depth;
  std::thread worker;
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<Item> queue;
  bool stopping = false;
};

} // namespace data
} // namespace ms

#endif // MS_DATA_ITERATOR_H
