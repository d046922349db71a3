//===- Iterator.cpp - Running a dataset pipeline --------------------------===//

#include "ms/Data/Iterator.h"

using namespace ms::data;

Iterator::Iterator(NodePtr root, int64_t numEpochs, bool prefetch,
                   size_t depth)
    : root(std::move(root)), numEpochs(numEpochs),
      depth(std::max<size_t>(depth, 1)) {
  if (prefetch && !this->root->callsPython())
    worker = std::thread([this] { work(); });
}

Iterator::~Iterator() {
  if (!worker.joinable())
    return;
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  changed.notify_all();
  worker.join();
}

Iterator::Item Iterator::produce() {
  if (failed || (numEpochs >= 0 && int64_t(epoch) >= numEpochs))
    return {Kind::Finished, {}, {}};
  if (!started) {
    if (llvm::Error e = root->reset(epoch)) {
      failed = true;
      return {Kind::Error, {}, llvm::toString(std::move(e))};
    }
    started = true;
  }
  Item item{Kind::Row, {}, {}};
  auto more = root->next(item.row);
  if (!more) {
    failed = true;
    return {Kind::Error, {}, llvm::toString(more.takeError())};
  }
  if (*more)
    return item;
  started = false;
  ++epoch;
  return {Kind::EndOfEpoch, {}, {}};
}

void Iterator::work() {
  while (true) {
    Item item = produce();
    bool last = item.kind == Kind::Error || item.kind == Kind::Finished;
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return stopping || queue.size() < depth; });
    if (stopping)
      return;
    queue.push_back(std::move(item));
    lock.unlock();
    changed.notify_all();
    if (last)
      return;
  }
}

llvm::Expected<bool> Iterator::next(Row &row) {
  if (done)
    return false;
  Item item;
  if (worker.joinable()) {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return !queue.empty(); });
    item = std::move(queue.front());
    // A terminal item stays, so later calls see it too.
    if (item.kind == Kind::Row || item.kind == Kind::EndOfEpoch)
      queue.pop_front();
    else
      queue.front() = {Kind::Finished, {}, {}};
    lock.unlock();
    changed.notify_all();
  } else {
    item = produce();
  }
  switch (item.kind) {
  case Kind::Row:
    row = std::move(item.row);
    return true;
  case Kind::EndOfEpoch:
    return false;
  case Kind::Finished:
    done = true;
    return false;
  case Kind::Error:
    done = true;
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   item.error);
  }
  return false;
}
