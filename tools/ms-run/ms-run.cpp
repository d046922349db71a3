//===- ms-run.cpp - Run an ms network from the command line ---------------===//
//
// ms-run FILE.mlir compiles the entry of a network written in the ms dialect
// and runs it on inputs and parameters given on the command line, in Graph
// mode (the whole function compiled once) or PyNative mode (one op at a time).
//
// Exit codes: 0 ok, 1 compile / runtime / file error, 2 usage error.
//
//===----------------------------------------------------------------------===//

#include "ms/Pipelines/Pipelines.h"
#include "ms/Runtime/Execution/EagerExecutor.h"
#include "ms/Runtime/Execution/Evaluation.h"
#include "ms/Runtime/Execution/ParamInit.h"
#include "ms/Runtime/Formats/Checkpoint.h"
#include "ms/Runtime/Formats/Idx.h"
#include "ms/Runtime/Formats/Npy.h"
#include "ms/Runtime/Formats/NumpyFormat.h"
#include "ms/Runtime/Formats/SafeTensors.h"
#include "ms/Runtime/Jit/Diagnostics.h"
#include "ms/Runtime/Jit/GraphCompiler.h"
#include "ms/Runtime/Jit/JitModule.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <utility>

using namespace mlir;
using namespace ms;
using namespace ms::runtime;
namespace cl = llvm::cl;

namespace {

enum ExitCode { Ok = 0, Failure = 1, Usage = 2 };

cl::OptionCategory category("ms-run options");

cl::opt<std::string> inputFile(cl::Positional, cl::desc("<FILE.mlir>"),
                               cl::cat(category));
cl::opt<std::string> entry("entry", cl::desc("Function to run"),
                           cl::init("construct"), cl::cat(category));
cl::opt<std::string>
    mode("mode",
         cl::desc("graph: compile the whole function once (jit); pynative: "
                  "run it one op at a time, each op a cached kernel"),
         cl::init("graph"), cl::value_desc("graph|pynative"),
         cl::cat(category));
cl::opt<std::string> jitLevel(
    "jit-level",
    cl::desc("Graph-level work (JitConfig jit_level); every level runs the "
             "same vectorized kernels: O0 each op its own kernel, O1 adds "
             "fusion, O2 (the default) adds whole-graph optimizations"),
    cl::init("O2"), cl::value_desc("O0|O1|O2"), cl::cat(category));
cl::opt<std::string> excMode(
    "exc-mode",
    cl::desc("Graph mode execution (JitConfig exc_mode): sink runs the whole "
             "graph as one native entry; no_sink runs it kernel by kernel "
             "from the host, one compiled kernel per op; auto picks no_sink "
             "at O0 and sink at O1/O2"),
    cl::init("auto"), cl::value_desc("auto|sink|no_sink"), cl::cat(category));
cl::opt<unsigned> numThreads(
    "num-threads",
    cl::desc("Threads for the parallel loops, at every level and in PyNative "
             "(default 0: the core count)"),
    cl::init(0), cl::value_desc("N"), cl::cat(category));
cl::opt<unsigned> kernelCacheSize(
    "kernel-cache-size",
    cl::desc("PyNative and no_sink: compiled kernels kept; beyond it the "
             "least recently used is freed (default 1024)"),
    cl::init(EagerOptions::kDefaultKernelCacheSize), cl::value_desc("N"),
    cl::cat(category));
cl::list<std::string>
    inputs("input",
           cl::desc("One per non-parameter argument, in order (default "
                    "ones): ones, zeros, rand[:SEED] (uniform [0, 1)), "
                    "PATH.npy, or idx:PATH (the first N items of an IDX "
                    "file, gzipped or not; u8 images become f32 in [0, 1] "
                    "and are zero-padded evenly to the input's H x W)"),
           cl::value_desc("spec"), cl::cat(category));
cl::opt<std::string> paramsFile(
    "params",
    cl::desc("Parameters, bound by ms.param name: a MindSpore .ckpt or a "
             "safetensors file (told apart by content)"),
                                cl::value_desc("PATH"),
                                cl::cat(category));
cl::opt<uint64_t>
    initParams("init-params",
               cl::desc("Initialize parameters missing from --params as "
                        "MindSpore's layers do (HeUniform weight, Uniform "
                        "bias), from this seed"),
               cl::value_desc("SEED"), cl::cat(category));
cl::opt<std::string> evalLabels(
    "eval-labels",
    cl::desc("Evaluate a classifier: run the entry over every image of the "
             "first --input=idx:PATH, one batch of the entry's size at a time, "
             "and print its accuracy against these IDX labels and the images "
             "per second"),
    cl::value_desc("PATH"), cl::cat(category));
cl::opt<int64_t> evalLimit("eval-limit",
                           cl::desc("With --eval-labels: only the first N "
                                    "images (default: all)"),
                           cl::init(0), cl::value_desc("N"),
                           cl::cat(category));
cl::list<std::string> outputs("output",
                              cl::desc("Write result i to the i-th PATH.npy"),
                              cl::value_desc("PATH.npy"), cl::cat(category));
cl::opt<bool> printResults("print",
                           cl::desc("Print the results like numpy does"),
                           cl::cat(category));
cl::opt<unsigned> repeat("repeat",
                         cl::desc("Time N runs; prints 'ms-run: N runs, "
                                  "median X ms, min Y ms' on stderr"),
                         cl::init(1), cl::value_desc("N"), cl::cat(category));
cl::opt<unsigned> warmup("warmup", cl::desc("Untimed runs before --repeat"),
                         cl::init(0), cl::value_desc("M"), cl::cat(category));
cl::opt<std::string>
    dumpIR("dump-ir-after-all",
           cl::desc("Write the IR after each pipeline stage to DIR, one file "
                    "per stage (graph mode)"),
           cl::value_desc("DIR"), cl::cat(category));
cl::opt<bool> timeCompile(
    "time-compile",
    cl::desc("Graph mode: print 'ms-run: compile X ms (lowering Y ms, "
             "codegen Z ms)' on stderr, and with a compile cache "
             "'ms-run: compile cache hit|miss|rebuilt'"),
    cl::cat(category));
cl::opt<std::string> cacheDir(
    "cache-dir",
    cl::desc("Graph mode: keep compiled code in DIR and reuse it in later "
             "runs (default: $MS_COMPILER_CACHE_PATH; unset: no cache). Bad "
             "entries are rebuilt; the directory is kept under "
             "$MS_COMPILER_CACHE_MAX_SIZE megabytes (default 1024)"),
    cl::value_desc("DIR"), cl::cat(category));
cl::opt<bool> printIntermediates(
    "print-intermediates",
    cl::desc("PyNative: print every op's result as it is produced (Cell "
             "path, op, shape, summary)"),
    cl::cat(category));
// LLVM owns the name "-stats"; main() maps --stats onto this option.
cl::opt<bool> stats("ms-run-stats", cl::ReallyHidden, cl::cat(category));

int fail(const llvm::Twine &message) {
  llvm::errs() << "ms-run: error: " << message << "\n";
  return Failure;
}

int fail(llvm::Error error) {
  // Located diagnostics already say where; everything else gets our prefix.
  std::string text = llvm::toString(std::move(error));
  llvm::StringRef rest = text;
  while (!rest.empty()) {
    auto [line, tail] = rest.split('\n');
    if (line.contains(": error: "))
      llvm::errs() << line << "\n";
    else
      llvm::errs() << "ms-run: error: " << line << "\n";
    rest = tail;
  }
  return Failure;
}

int usage(const llvm::Twine &message) {
  llvm::errs() << "ms-run: usage error: " << message
               << "\n(see ms-run --help)\n";
  return Usage;
}

/// Reads an IDX file once per run: --eval-labels evaluates the images that
/// also fill the first input, and decompressing them twice would be waste.
llvm::Expected<const IdxArray &> readIdxOnce(llvm::StringRef path) {
  static std::map<std::string, IdxArray, std::less<>> files;
  auto it = files.find(path);
  if (it == files.end()) {
    auto idx = readIdx(path);
    if (!idx)
      return idx.takeError();
    it = files.emplace(path.str(), std::move(*idx)).first;
  }
  return it->second;
}

/// Makes the tensor for one non-parameter argument from its --input spec.
llvm::Expected<HostTensor> makeInput(llvm::StringRef spec,
                                     const TensorSpec &arg, size_t index) {
  // A ? batch is sized by the data: only a .npy file has one.
  if (arg.isDynamic() && !spec.ends_with(".npy"))
    return makeError("input " + llvm::Twine(index) + " of @" + entry + " is " +
                     arg.typeString() +
                     ": its ? batch comes from the data, so "
                     "give it as a .npy file (--input=x.npy), not '" +
                     spec + "'");
  if (spec.consume_front("idx:")) {
    auto idx = readIdxOnce(spec);
    if (!idx)
      return idx.takeError();
    return idxSlice(*idx, 0, arg.dtype, arg.shape);
  }
  if (spec.ends_with(".npy")) {
    auto tensor = readNpy(spec);
    if (!tensor)
      return tensor.takeError();
    if (!arg.matches(*tensor))
      return makeError(spec + ": holds " + tensor->typeString() +
                       ", but input " + llvm::Twine(index) + " of @" + entry +
                       " is " + arg.typeString());
    return tensor;
  }
  auto allocated = HostTensor::allocate(arg.dtype, arg.shape);
  if (!allocated)
    return makeError("input " + llvm::Twine(index) + " of @" + entry + " (" +
                     arg.typeString() +
                     "): " + llvm::toString(allocated.takeError()));
  HostTensor tensor = std::move(*allocated);
  if (spec == "zeros")
    return tensor;
  if (spec == "ones") {
    for (int64_t i = 0; i < tensor.numElements(); ++i)
      storeElement(tensor.data(), arg.dtype, i, 1.0);
    return tensor;
  }
  // rand[:SEED], validated by the caller.
  uint64_t seed = 0;
  if (spec.consume_front("rand:"))
    spec.getAsInteger(10, seed);
  if (arg.dtype != DType::F32)
    return makeError("--input=rand needs an f32 input; input " +
                     llvm::Twine(index) + " is " + arg.typeString());
  fillUniform(tensor, 0.0f, 1.0f, seed);
  return tensor;
}

bool isValidInputSpec(llvm::StringRef spec) {
  if (spec == "ones" || spec == "zeros" || spec == "rand" ||
      spec.ends_with(".npy") || (spec.starts_with("idx:") && spec.size() > 4))
    return true;
  uint64_t seed;
  return spec.consume_front("rand:") && !spec.getAsInteger(10, seed);
}

/// Binds every argument of the entry: inputs from --input, parameters from
/// --params or --init-params.
llvm::Expected<std::vector<HostTensor>>
bindArguments(const EntrySignature &sig) {
  std::optional<CheckpointFile> params;
  if (!paramsFile.empty()) {
    auto file = CheckpointFile::open(paramsFile);
    if (!file)
      return file.takeError();
    params = std::move(*file);
  }
  std::vector<HostTensor> args;
  size_t inputIndex = 0;
  for (const TensorSpec &arg : sig.args) {
    if (!arg.isParameter()) {
      llvm::StringRef spec =
          inputIndex < inputs.size() ? llvm::StringRef(inputs[inputIndex])
                                     : "ones";
      auto tensor = makeInput(spec, arg, inputIndex++);
      if (!tensor)
        return tensor.takeError();
      args.push_back(std::move(*tensor));
      continue;
    }
    if (params && params->contains(arg.paramName)) {
      auto tensor = params->load(arg.paramName, arg.dtype, arg.shape);
      if (!tensor)
        return tensor.takeError();
      args.push_back(std::move(*tensor));
      continue;
    }
    if (initParams.getNumOccurrences() == 0)
      return makeError("parameter '" + arg.paramName + "' (" +
                       arg.typeString() + ") is not given: " +
                       (params ? "it is not in " + paramsFile + "; "
                               : std::string("no --params file; ")) +
                       "pass --params=PATH (.ckpt or .safetensors) or "
                       "--init-params=SEED");
    auto tensor = initParameter(arg, sig, initParams);
    if (!tensor)
      return tensor.takeError();
    args.push_back(std::move(*tensor));
  }
  return args;
}

/// The entry's first non-parameter argument, if any.
const TensorSpec *firstInput(const EntrySignature &sig) {
  for (const TensorSpec &arg : sig.args)
    if (!arg.isParameter())
      return &arg;
  return nullptr;
}

/// --eval-labels: the classifier's score over the IDX images of the first
/// --input, every other argument as bound.
template <typename RunFn>
llvm::Expected<ClassifierScore> evaluate(const EntrySignature &sig,
                                         std::vector<HostTensor> args,
                                         RunFn &runOnce) {
  auto images = readIdxOnce(llvm::StringRef(inputs[0]).drop_front(4));
  if (!images)
    return images.takeError();
  auto labels = readIdxOnce(evalLabels);
  if (!labels)
    return labels.takeError();
  size_t index = firstInput(sig) - sig.args.data();
  const TensorSpec &input = sig.args[index];
  return evaluateClassifier(
      *images, *labels, input.dtype, input.shape, evalLimit,
      [&](const HostTensor &batch) -> llvm::Expected<HostTensor> {
        args[index] = batch;
        auto out = runOnce(args);
        if (!out)
          return out.takeError();
        return std::move((*out)[0]);
      });
}

/// Runs `body` --warmup + --repeat times; reports timing when asked.
template <typename Fn> llvm::Error timeRuns(Fn body) {
  for (unsigned i = 0; i < warmup; ++i)
    if (auto err = body())
      return err;
  std::vector<double> millis;
  for (unsigned i = 0; i < std::max(1u, unsigned(repeat)); ++i) {
    auto start = std::chrono::steady_clock::now();
    if (auto err = body())
      return err;
    millis.push_back(std::chrono::duration<double, std::milli>(
                         std::chrono::steady_clock::now() - start)
                         .count());
  }
  if (repeat.getNumOccurrences()) {
    std::vector<double> sorted = millis;
    std::sort(sorted.begin(), sorted.end());
    double median = sorted.size() % 2
                        ? sorted[sorted.size() / 2]
                        : (sorted[sorted.size() / 2 - 1] +
                           sorted[sorted.size() / 2]) /
                              2;
    llvm::errs() << llvm::format("ms-run: %zu runs, median %.3f ms, min "
                                 "%.3f ms\n",
                                 sorted.size(), median, sorted.front());
  }
  return llvm::Error::success();
}

/// The usage errors of options that go together: dumps, evaluation,
/// caches and PyNative's reports, for the chosen mode.
std::optional<int> checkModeOptions(bool sink) {
  if (mode == "graph" && !sink && !dumpIR.empty())
    return usage("--dump-ir-after-all dumps the whole-graph compile: add "
                 "--exc-mode=sink (at O0, exc_mode auto runs kernel by "
                 "kernel)");
  if (!evalLabels.empty() &&
      (inputs.empty() || !llvm::StringRef(inputs[0]).starts_with("idx:")))
    return usage("--eval-labels needs the images as the first input: "
                 "--input=idx:PATH");
  if (!evalLabels.empty() &&
      (!outputs.empty() || printResults || repeat.getNumOccurrences()))
    return usage("--eval-labels prints the accuracy; it does not combine "
                 "with --output, --print or --repeat");
  if (evalLimit < 0)
    return usage("--eval-limit must be 0 (all) or more");
  if (kernelCacheSize == 0)
    return usage("--kernel-cache-size must be at least 1");
  if (!cacheDir.empty() && !(mode == "graph" && sink))
    return usage("--cache-dir caches whole-graph compiles: it needs "
                 "--mode=graph with exc_mode sink (the default at O1/O2)");
  if (mode == "graph" && (printIntermediates || stats))
    return usage("--print-intermediates and --stats need --mode=pynative");
  return std::nullopt;
}

/// More --input or --output than the entry has arguments or results is a
/// usage error.
std::optional<int> checkArgumentCounts(const EntrySignature &sig) {
  size_t numInputs = llvm::count_if(
      sig.args, [](const TensorSpec &a) { return !a.isParameter(); });
  if (inputs.size() > numInputs)
    return usage(llvm::Twine(inputs.size()) + " --input given, but @" + entry +
                 " has " + llvm::Twine(numInputs) + " non-parameter inputs");
  if (outputs.size() > sig.results.size())
    return usage(llvm::Twine(outputs.size()) + " --output given, but @" +
                 entry + " has " + llvm::Twine(sig.results.size()) +
                 " results");
  return std::nullopt;
}

/// Parses the command line (--stats is ours, not LLVM's); false on a
/// usage error, which cl has reported.
bool parseCommandLine(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  std::vector<const char *> argvList(argv, argv + argc);
  for (const char *&arg : argvList)
    if (llvm::StringRef(arg) == "--stats" || llvm::StringRef(arg) == "-stats")
      arg = "--ms-run-stats";
  return cl::ParseCommandLineOptions(
      argvList.size(), argvList.data(),
      "ms-run: compile and run an ms network (Graph or PyNative mode)\n\n"
      "  ms-run net.mlir --mode=graph --jit-level=O2 --init-params=0 "
      "--print\n\n"
      "  --stats  PyNative: report kernel-cache hits and misses and the "
      "time spent\n           compiling vs running, on stderr\n\n"
      "Exit codes: 0 ok, 1 compile/runtime/file error, 2 usage error.\n",
      &llvm::errs());
}

/// The options for the compile, from the command line.
struct RunOptions {
  CompileOptions compile;
  /// Graph mode runs the whole entry as one native function.
  bool sink = false;
};

/// Checks the options that need no input file; on a usage error, returns
/// the exit code.
std::optional<int> checkOptions(RunOptions &run) {
  if (inputFile.empty())
    return usage("no input file; expected ms-run FILE.mlir [options]");
  if (mode != "graph" && mode != "pynative")
    return usage("--mode must be graph or pynative, got '" + mode + "'");
  std::optional<JitLevel> level = parseJitLevel(jitLevel);
  if (!level)
    return usage("--jit-level must be O0, O1 or O2, got '" + jitLevel + "'");
  for (const std::string &spec : inputs)
    if (!isValidInputSpec(spec))
      return usage("--input=" + spec +
                   ": expected ones, zeros, rand[:SEED], a PATH.npy or "
                   "idx:PATH");
  for (const std::string &path : outputs)
    if (!llvm::StringRef(path).ends_with(".npy"))
      return usage("--output=" + path + ": expected a PATH.npy");
  if (repeat == 0)
    return usage("--repeat must be at least 1");
  std::optional<ExecMode> execMode = parseExecMode(excMode);
  if (!execMode)
    return usage("--exc-mode must be auto, sink or no_sink, got '" + excMode +
                 "'");
  run.compile.jitLevel = *level;
  run.compile.execMode = *execMode;
  run.compile.numThreads = numThreads;
  run.compile.dumpIRDir = dumpIR;
  run.sink = resolveExecMode(run.compile) == ExecMode::Sink;
  return checkModeOptions(run.sink);
}

/// The entry to run: the parsed file, the function and its signature.
struct LoadedEntry {
  llvm::SourceMgr sourceMgr;
  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
  EntrySignature signature;

  llvm::StringRef source() const {
    return sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer();
  }
};

/// Parses --input's file and finds the entry; on an error, returns the exit
/// code.
std::optional<int> load(MLIRContext &context, LoadedEntry &loaded) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(inputFile);
  if (!buffer)
    return fail("cannot open '" + inputFile +
                "': " + buffer.getError().message());
  loaded.sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  {
    DiagnosticCollector diagnostics(&context);
    loaded.module = parseSourceFile<ModuleOp>(loaded.sourceMgr, &context);
    if (!loaded.module)
      return fail(diagnostics.takeError(inputFile + " is not valid MLIR"));
  }
  loaded.func = loaded.module->lookupSymbol<func::FuncOp>(entry);
  if (!loaded.func) {
    std::string available;
    for (auto f : loaded.module->getOps<func::FuncOp>())
      available += (available.empty() ? "" : ", ") + ("@" + f.getSymName()).str();
    return fail("no function @" + entry + " in " + inputFile +
                (available.empty() ? "" : " (it has " + available + ")"));
  }
  auto sig = readSignature(loaded.func);
  if (!sig)
    return fail(sig.takeError());
  loaded.signature = std::move(*sig);
  return checkArgumentCounts(loaded.signature);
}

/// Runs the entry: the whole graph compiled once (graph mode with sink), or
/// one cached kernel per op (PyNative, and graph mode without sink).
struct Runner {
  std::unique_ptr<JitModule> jit;
  std::optional<EagerExecutor> executor;
  func::FuncOp func;
  /// --print-intermediates: printed on the first run only.
  EagerTrace trace;

  llvm::Expected<std::vector<HostTensor>>
  operator()(llvm::ArrayRef<HostTensor> arguments) {
    if (jit)
      return jit->run(arguments);
    // Intermediates once, not once per repeat.
    EagerTrace once = std::exchange(trace, EagerTrace());
    return executor->runFunction(func, arguments, once);
  }
};

/// Prints what --time-compile asks for, and a compile cache's warning.
void reportCompile(const CompileTimes &times) {
  if (timeCompile) {
    llvm::errs() << llvm::format(
        "ms-run: compile %.1f ms (lowering %.1f ms, codegen %.1f ms)\n",
        (times.lowering + times.codegen) * 1e3, times.lowering * 1e3,
        times.codegen * 1e3);
    if (times.cache != CacheStatus::Off)
      llvm::errs() << "ms-run: compile cache " << cacheStatusName(times.cache)
                   << "\n";
  }
  // A rebuilt entry or a failed store is worth one line, not a failure.
  if (!times.cacheNote.empty())
    llvm::errs() << "ms-run: warning: compile cache: " << times.cacheNote
                 << "\n";
}

/// Makes the runner: in graph mode with sink, compiles the whole entry now
/// (through the compile cache, if there is one).
llvm::Error compile(LoadedEntry &loaded, const RunOptions &run,
                    Runner &runner) {
  runner.func = loaded.func;
  if (printIntermediates)
    runner.trace = [](const EagerStep &step) {
      llvm::outs() << formatEagerStep(step) << "\n";
    };
  if (!(mode == "graph" && run.sink)) {
    // One op per kernel, compiled at the same level and thread count.
    CompileOptions kernels = run.compile;
    kernels.dumpIRDir.clear();
    runner.executor.emplace(EagerOptions{kernels, kernelCacheSize});
    return llvm::Error::success();
  }
  std::string dir = cacheDir;
  if (!cacheDir.getNumOccurrences())
    if (const char *env = std::getenv("MS_COMPILER_CACHE_PATH"))
      dir = env;
  std::optional<CompileCache> cache;
  if (!dir.empty())
    cache.emplace(dir);
  auto compiled =
      compileCached(cache ? &*cache : nullptr, loaded.source(), entry,
                    run.compile,
                    [&]() -> llvm::Expected<EntrySignature> {
                      return loaded.signature;
                    },
                    [&](std::string *objectCode) {
                      return JitModule::compile(*loaded.module, entry,
                                                run.compile, objectCode);
                    });
  if (!compiled)
    return compiled.takeError();
  runner.jit = std::move(*compiled);
  reportCompile(runner.jit->compileTimes());
  return llvm::Error::success();
}

/// --stats: the kernel cache's statistics.
void reportStats(const Runner &runner) {
  if (stats)
    llvm::errs() << formatStats(runner.executor->stats()) << "\n";
}

/// --eval-labels: runs the classifier over the images and prints its
/// accuracy.
int evaluateAndReport(const EntrySignature &sig,
                      const std::vector<HostTensor> &args, Runner &runner) {
  auto score = evaluate(sig, args, runner);
  if (!score)
    return fail(score.takeError());
  llvm::outs() << llvm::format(
      "accuracy %.2f%% (%lld/%lld), %.0f images/s [%s %s, batch %lld]\n",
      score->accuracyPercent(), (long long)score->correct,
      (long long)score->total, score->imagesPerSecond(), mode.c_str(),
      jitLevel.c_str(), (long long)firstInput(sig)->shape[0]);
  reportStats(runner);
  return Ok;
}

/// Runs the entry --warmup + --repeat times, then writes and prints the
/// results as --output and --print ask.
int runAndReport(const std::vector<HostTensor> &args, Runner &runner) {
  std::vector<HostTensor> results;
  if (auto err = timeRuns([&]() -> llvm::Error {
        auto out = runner(args);
        if (!out)
          return out.takeError();
        results = std::move(*out);
        return llvm::Error::success();
      }))
    return fail(std::move(err));
  reportStats(runner);
  for (auto [i, path] : llvm::enumerate(outputs))
    if (auto err = writeNpy(path, results[i]))
      return fail(std::move(err));
  if (printResults)
    for (const HostTensor &result : results)
      llvm::outs() << formatLikeNumpy(result) << "\n";
  return Ok;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (!parseCommandLine(argc, argv))
    return Usage;
  RunOptions run;
  if (std::optional<int> code = checkOptions(run))
    return *code;

  MLIRContext context;
  prepareContext(context);
  LoadedEntry loaded;
  if (std::optional<int> code = load(context, loaded))
    return *code;
  auto args = bindArguments(loaded.signature);
  if (!args)
    return fail(args.takeError());

  Runner runner;
  if (llvm::Error error = compile(loaded, run, runner))
    return fail(std::move(error));
  if (!evalLabels.empty())
    return evaluateAndReport(loaded.signature, *args, runner);
  return runAndReport(*args, runner);
}
