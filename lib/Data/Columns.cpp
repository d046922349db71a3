//===- Columns.cpp - Choosing, renaming and combining columns and rows ----===//
//
// project, rename, zip and concat: nodes that change which columns a row
// has, or which child a row comes from, without touching the data.
//
//===----------------------------------------------------------------------===//

#include "ms/Data/Pipeline.h"

#include "ms/Support/Error.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>

using namespace ms::data;
using llvm::Twine;
using ms::makeError;

namespace {

std::string quotedList(const std::vector<std::string> &names) {
  std::string text;
  for (const std::string &name : names)
    text += (text.empty() ? "'" : ", '") + name + "'";
  return text;
}

/// An error when two of `names` are the same column.
llvm::Error checkDistinct(const std::vector<std::string> &names,
                          llvm::StringRef op) {
  llvm::StringSet<> seen;
  for (const std::string &name : names)
    if (!seen.insert(name).second)
      return makeError(op + ": column '" + name +
                       "' appears twice (columns: " + quotedList(names) +
                       ")");
  return llvm::Error::success();
}

/// Columns `indices` of the child's rows, in that order, named `names`.
class ProjectNode : public Node {
public:
  ProjectNode(NodePtr child, std::vector<size_t> indices,
              std::vector<std::string> names)
      : child(std::move(child)), indices(std::move(indices)) {
    columnNames = std::move(names);
  }
  llvm::Error reset(uint64_t epoch) override { return child->reset(epoch); }
  llvm::Expected<bool> next(Row &row) override {
    auto more = child->next(whole);
    if (!more || !*more)
      return more;
    row.clear();
    for (size_t i : indices)
      row.push_back(whole[i]);
    return true;
  }
  int64_t size() const override { return child->size(); }
  bool callsPython() const override { return child->callsPython(); }

private:
  NodePtr child;
  std::vector<size_t> indices;
  Row whole;
};

/// A node over several children (zip, concat).
class CombinedNode : public Node {
public:
  explicit CombinedNode(std::vector<NodePtr> children)
      : children(std::move(children)) {}
  bool callsPython() const override {
    return llvm::any_of(children,
                        [](const NodePtr &c) { return c->callsPython(); });
  }

protected:
  std::vector<NodePtr> children;
};

/// Each child's row side by side; the epoch ends with the shortest child.
class ZipNode : public CombinedNode {
public:
  explicit ZipNode(std::vector<NodePtr> children)
      : CombinedNode(std::move(children)) {
    for (const NodePtr &c : this->children)
      llvm::append_range(columnNames, c->columns());
  }
  llvm::Error reset(uint64_t epoch) override {
    for (const NodePtr &c : children)
      if (llvm::Error e = c->reset(epoch))
        return e;
    return llvm::Error::success();
  }
  llvm::Expected<bool> next(Row &row) override {
    row.clear();
    for (const NodePtr &c : children) {
      auto more = c->next(part);
      if (!more || !*more)
        return more;
      for (Array &a : part)
        row.push_back(std::move(a));
    }
    return true;
  }
  int64_t size() const override {
    int64_t n = -1;
    for (const NodePtr &c : children) {
      int64_t s = c->size();
      if (s >= 0)
        n = n < 0 ? s : std::min(n, s);
    }
    return llvm::all_of(children, [](const NodePtr &c) { return c->size() >= 0; })
               ? n
               : -1;
  }

private:
  Row part;
};

/// The rows of each child in turn.
class ConcatNode : public CombinedNode {
public:
  explicit ConcatNode(std::vector<NodePtr> children)
      : CombinedNode(std::move(children)) {
    columnNames = this->children.front()->columns();
  }
  llvm::Error reset(uint64_t epoch) override {
    this->epoch = epoch;
    current = 0;
    return children.front()->reset(epoch);
  }
  llvm::Expected<bool> next(Row &row) override {
    while (current < children.size()) {
      auto more = children[current]->next(row);
      if (!more || *more)
        return more;
      if (++current < children.size())
        if (llvm::Error e = children[current]->reset(epoch))
          return std::move(e);
    }
    return false;
  }
  int64_t size() const override {
    int64_t n = 0;
    for (const NodePtr &c : children) {
      if (c->size() < 0)
        return -1;
      n += c->size();
    }
    return n;
  }

private:
  size_t current = 0;
  uint64_t epoch = 0;
};

} // namespace

llvm::Expected<size_t> ms::data::columnIndex(const Node &node,
                                             llvm::StringRef name,
                                             llvm::StringRef op) {
  const std::vector<std::string> &have = node.columns();
  auto it = llvm::find(have, name);
  if (it == have.end())
    return makeError(op + " column '" + name +
                     "' is not in the dataset (columns: " + quotedList(have) +
                     ")");
  return it - have.begin();
}

llvm::Expected<NodePtr>
ms::data::makeProject(NodePtr child, std::vector<std::string> columns) {
  if (columns.empty())
    return makeError("project: columns is empty");
  if (llvm::Error e = checkDistinct(columns, "project"))
    return std::move(e);
  std::vector<size_t> indices;
  for (const std::string &name : columns) {
    llvm::Expected<size_t> index = columnIndex(*child, name, "project:");
    if (!index)
      return index.takeError();
    indices.push_back(*index);
  }
  return NodePtr(std::make_shared<ProjectNode>(
      std::move(child), std::move(indices), std::move(columns)));
}

llvm::Expected<NodePtr>
ms::data::makeRename(NodePtr child, std::vector<std::string> inputColumns,
                     std::vector<std::string> outputColumns) {
  if (inputColumns.size() != outputColumns.size())
    return makeError("rename: input_columns has " +
                     Twine(inputColumns.size()) + " names, output_columns " +
                     Twine(outputColumns.size()) + "; they must pair up");
  std::vector<std::string> names = child->columns();
  for (auto [from, to] : llvm::zip(inputColumns, outputColumns)) {
    llvm::Expected<size_t> index = columnIndex(*child, from, "rename: input");
    if (!index)
      return index.takeError();
    names[*index] = to;
  }
  if (llvm::Error e = checkDistinct(names, "rename"))
    return std::move(e);
  std::vector<size_t> all(names.size());
  for (size_t i = 0; i < all.size(); ++i)
    all[i] = i;
  return NodePtr(std::make_shared<ProjectNode>(std::move(child),
                                               std::move(all),
                                               std::move(names)));
}

llvm::Expected<NodePtr> ms::data::makeZip(std::vector<NodePtr> children) {
  if (children.size() < 2)
    return makeError("zip: needs at least two datasets");
  std::vector<std::string> names;
  for (const NodePtr &c : children)
    llvm::append_range(names, c->columns());
  if (llvm::Error e = checkDistinct(names, "zip"))
    return std::move(e);
  return NodePtr(std::make_shared<ZipNode>(std::move(children)));
}

llvm::Expected<NodePtr> ms::data::makeConcat(std::vector<NodePtr> children) {
  if (children.size() < 2)
    return makeError("concat: needs at least two datasets");
  const std::vector<std::string> &first = children.front()->columns();
  for (size_t i = 1; i < children.size(); ++i)
    if (children[i]->columns() != first)
      return makeError("concat: dataset " + Twine(i) + " has columns " +
                       quotedList(children[i]->columns()) +
                       ", the first has " + quotedList(first) +
                       "; concat needs the same columns in the same order");
  return NodePtr(std::make_shared<ConcatNode>(std::move(children)));
}
