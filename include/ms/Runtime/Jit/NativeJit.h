//===- NativeJit.h - Host code from LLVM-dialect modules --------*- C++ -*-===//
//
// Turns an LLVM-dialect module into object code for the host CPU (LLVM -O3,
// then codegen), and links object code into one LLJIT that the whole
// process shares.
//
// Why not one mlir::ExecutionEngine per module: each engine builds its own
// LLJIT, platform support and host-CPU detection. That fixed cost was about
// 35 ms per module, most of a PyNative kernel's compile (a one-op module's
// own code takes a few ms). Here each module gets a JITDylib of its own in
// the shared JIT, removed again when its NativeCode is destroyed.
//
// With several threads allowed, codegen splits the module's functions
// (an O2 graph's parallel loop bodies are functions of their own) into that
// many parts and compiles them at once. Each function's code is the same
// whichever part it lands in.
//
//===----------------------------------------------------------------------===//
#ifndef MS_RUNTIME_JIT_NATIVEJIT_H
#define MS_RUNTIME_JIT_NATIVEJIT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
namespace orc {
class JITDylib;
} // namespace orc
} // namespace llvm

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace ms {
namespace runtime {

/// Object code for the host of an LLVM-dialect `module`: one object file,
/// or up to `parts` when the module has two or more functions large enough
/// to be worth a codegen thread each. Besides the module's own
/// symbols, the objects define `_mlir__mlir_ciface_<entry>`, the packed
/// entry that NativeCode calls: it takes an array of pointers to the C
/// interface's arguments.
llvm::Expected<std::vector<std::string>>
emitHostObjects(mlir::ModuleOp module, llvm::StringRef entry, unsigned parts);

/// Object code linked into the process's JIT, callable through its packed
/// entry. Destroying it unlinks the code.
class NativeCode {
public:
  /// Links `objects` (from emitHostObjects, now or in an earlier process)
  /// into a JITDylib of their own. `openMP` makes the OpenMP runtime's
  /// symbols available (multithreaded modules call into it).
  static llvm::Expected<std::unique_ptr<NativeCode>>
  link(llvm::ArrayRef<std::string> objects, llvm::StringRef entry,
       bool openMP);
  ~NativeCode();
  NativeCode(const NativeCode &) = delete;
  NativeCode &operator=(const NativeCode &) = delete;

  /// Calls the entry with pointers to its C-interface arguments.
  void call(void **arguments) const { packedEntry(arguments); }

private:
  NativeCode() = default;

  llvm::orc::JITDylib *dylib = nullptr;
  void (*packedEntry)(void **) = nullptr;
};

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_JIT_NATIVEJIT_H
