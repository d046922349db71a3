//===- EagerBench.cpp - PyNative dispatch and mode comparison -------------===//
//
// Google Benchmark:
//   BM_DispatchHit             one relu on [1, 10] through the executor, a
//                              kernel-cache hit every time
//   BM_Chain100_PyNative       100 small elementwise ops on [1, 10], op
//                              by op
//   BM_Chain100_Graph/L        the same as one graph at jit level O<L>
//   BM_MLP_PyNative            the seed MLP forward at batch 64, op by op
//   BM_MLP_Graph/L             the same as one graph at jit level O<L>
//
//===----------------------------------------------------------------------===//

#include "ms/Runtime/Execution/EagerExecutor.h"
#include "ms/Runtime/Execution/ParamInit.h"
#include "ms/Runtime/Jit/GraphCompiler.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

using namespace ms;
using namespace ms::runtime;

namespace {

[[noreturn]] void die(llvm::Error error) {
  fprintf(stderr, "bench: %s\n", llvm::toString(std::move(error)).c_str());
  std::exit(1);
}

template <typename T> T check(llvm::Expected<T> value) {
  if (!value)
    die(value.takeError());
  return std::move(*value);
}

HostTensor randomTensor(llvm::ArrayRef<int64_t> shape, uint64_t seed) {
  HostTensor t(DType::F32, shape);
  fillUniform(t, -1.0f, 1.0f, seed);
  return t;
}

/// The op sequence of the chain: cycles through cheap elementwise ops that
/// keep values bounded.
const char *chainOp(int i) {
  static const char *ops[] = {"ms.add", "ms.mul", "ms.relu", "ms.neg",
                              "ms.sub", "ms.abs", "ms.maximum", "ms.tanh"};
  return ops[i % 8];
}
bool isBinary(llvm::StringRef op) {
  return op == "ms.add" || op == "ms.mul" || op == "ms.sub" ||
         op == "ms.maximum";
}

std::string chainSource(int length) {
  std::string s = "func.func @construct(%x: tensor<1x10xf32>, %y: "
                  "tensor<1x10xf32>) -> tensor<1x10xf32> {\n";
  std::string prev = "%x";
  for (int i = 0; i < length; ++i) {
    llvm::StringRef op = chainOp(i);
    std::string cur = "%v" + std::to_string(i);
    if (isBinary(op))
      s += "  " + cur + " = " + op.str() + " " + prev +
           ", %y : tensor<1x10xf32>, tensor<1x10xf32>\n";
    else
      s += "  " + cur + " = " + op.str() + " " + prev + " : tensor<1x10xf32>\n";
    prev = cur;
  }
  return s + "  return " + prev + " : tensor<1x10xf32>\n}\n";
}

void BM_DispatchHit(benchmark::State &state) {
  EagerExecutor executor;
  HostTensor x = randomTensor({1, 10}, 1);
  OpCall relu{"ms.relu", ""};
  check(executor.run(relu, {x})); // compile once
  for (auto _ : state) {
    auto out = executor.run(relu, {x});
    benchmark::DoNotOptimize(out->front().data());
  }
  state.counters["hits"] = static_cast<double>(executor.stats().hits);
}
BENCHMARK(BM_DispatchHit);

void BM_Chain100_PyNative(benchmark::State &state) {
  EagerExecutor executor;
  HostTensor x = randomTensor({1, 10}, 1), y = randomTensor({1, 10}, 2);
  std::vector<OpCall> calls;
  for (int i = 0; i < 100; ++i)
    calls.push_back({chainOp(i), ""});
  auto runChain = [&] {
    HostTensor v = x;
    for (const OpCall &call : calls) {
      std::vector<HostTensor> out =
          isBinary(call.name) ? check(executor.run(call, {v, y}))
                              : check(executor.run(call, {v}));
      v = out.front();
    }
    return v;
  };
  runChain(); // compile the kernels
  for (auto _ : state)
    benchmark::DoNotOptimize(runChain().data());
  state.counters["us_per_op"] = benchmark::Counter(
      100, benchmark::Counter::kIsIterationInvariantRate |
               benchmark::Counter::kInvert);
}
BENCHMARK(BM_Chain100_PyNative)->Unit(benchmark::kMicrosecond);

/// The jit level a benchmark's argument names (0, 1 or 2).
CompileOptions atLevel(benchmark::State &state) {
  CompileOptions options;
  options.jitLevel = static_cast<JitLevel>(state.range(0));
  state.SetLabel(jitLevelName(options.jitLevel).str());
  return options;
}

void BM_Chain100_Graph(benchmark::State &state) {
  GraphCompiler compiler;
  auto jit = check(compiler.compile(chainSource(100), "construct",
                                    atLevel(state)));
  HostTensor x = randomTensor({1, 10}, 1), y = randomTensor({1, 10}, 2);
  for (auto _ : state) {
    auto out = jit->run({x, y});
    benchmark::DoNotOptimize(out->front().data());
  }
}
BENCHMARK(BM_Chain100_Graph)
    ->Unit(benchmark::kMicrosecond)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2);

/// The seed MLP from examples/mlp.mlir with initialized parameters.
struct Mlp {
  Mlp() {
    prepareContext(context);
    auto buffer = llvm::MemoryBuffer::getFile(MS_SOURCE_DIR "/examples/mlp.mlir");
    if (!buffer)
      die(llvm::createStringError(buffer.getError(), "examples/mlp.mlir"));
    module = mlir::parseSourceString<mlir::ModuleOp>((*buffer)->getBuffer(),
                                                     &context);
    func = module->lookupSymbol<mlir::func::FuncOp>("construct");
    EntrySignature sig = check(readSignature(func));
    for (const TensorSpec &arg : sig.args)
      args.push_back(arg.isParameter() ? check(initParameter(arg, sig, 0))
                                       : randomTensor(arg.shape, 7));
  }
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp func;
  std::vector<HostTensor> args;
};

void BM_MLP_PyNative(benchmark::State &state) {
  Mlp mlp;
  EagerExecutor executor;
  check(executor.runFunction(mlp.func, mlp.args));
  for (auto _ : state)
    benchmark::DoNotOptimize(check(executor.runFunction(mlp.func, mlp.args)));
}
BENCHMARK(BM_MLP_PyNative)->Unit(benchmark::kMillisecond);

void BM_MLP_Graph(benchmark::State &state) {
  Mlp mlp;
  mlir::OwningOpRef<mlir::ModuleOp> copy = mlp.module->clone();
  auto jit = check(JitModule::compile(*copy, "construct", atLevel(state)));
  for (auto _ : state)
    benchmark::DoNotOptimize(check(jit->run(mlp.args)));
}
BENCHMARK(BM_MLP_Graph)
    ->Unit(benchmark::kMillisecond)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2);

} // namespace

BENCHMARK_MAIN();
