// Runs Clang in CUDA host mode on one module (an embedded source or a raw file) against the shim
// headers, with a precompiled header of the shims, and hands the AST to the fact collector.
//
// Missing headers never stop the parse: a virtual directory searched last (-idirafter) answers
// every include with an empty file, so names from absent headers survive as recovery nodes.
#include "analyzers/cuda/clang/clang_engine.h"
#include "analyzers/cuda/cuda_common.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <optional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Basic/Version.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Frontend/Utils.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <clang/Serialization/PCHContainerOperations.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <llvm/ADT/Hashing.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/VirtualFileSystem.h>

#include "analyzers/core/budget.h"
#include "analyzers/core/data_dir.h"
#include "analyzers/cuda/clang/clang_collector.h"
#include "analyzers/cuda/cuda_facts.h"

namespace kgate::cuda {
namespace {

constexpr const char* kMissingRoot = "/kgate-missing";
constexpr const char* kEmbeddedRoot = "/kgate-embedded";

// ---- a file system where every header under /kgate-missing exists and is empty ----

class EmptyFile : public llvm::vfs::File {
 public:
  explicit EmptyFile(llvm::vfs::Status s) : status_(std::move(s)) {}
  llvm::ErrorOr<llvm::vfs::Status> status() override { return status_; }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> getBuffer(const llvm::Twine& name, int64_t, bool, bool) override {
    return llvm::MemoryBuffer::getMemBuffer("", name.str());
  }
  std::error_code close() override { return {}; }

 private:
  llvm::vfs::Status status_;
};

class MissingHeaderFS : public llvm::vfs::FileSystem {
 public:
  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine& path) override {
    std::string p = path.str();
    std::string root = kMissingRoot;
    if (p != root && p.rfind(root + "/", 0) != 0) return std::make_error_code(std::errc::no_such_file_or_directory);
    llvm::StringRef leaf = llvm::sys::path::filename(p);
    bool is_file = p != root && leaf.contains('.');
    auto type = is_file ? llvm::sys::fs::file_type::regular_file : llvm::sys::fs::file_type::directory_file;
    return llvm::vfs::Status(p, llvm::sys::fs::UniqueID(0x6b67, llvm::hash_value(p)), llvm::sys::TimePoint<>(), 0, 0, 0,
                             type, llvm::sys::fs::all_read);
  }
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine& path) override {
    auto s = status(path);
    if (!s) return s.getError();
    if (s->getType() != llvm::sys::fs::file_type::regular_file) return std::make_error_code(std::errc::is_a_directory);
    return std::unique_ptr<llvm::vfs::File>(new EmptyFile(*s));
  }
  llvm::vfs::directory_iterator dir_begin(const llvm::Twine&, std::error_code& ec) override {
    ec = std::make_error_code(std::errc::no_such_file_or_directory);
    return {};
  }
  std::error_code setCurrentWorkingDirectory(const llvm::Twine&) override { return {}; }
  llvm::ErrorOr<std::string> getCurrentWorkingDirectory() const override { return std::string("/"); }
};

// ---- diagnostics, includes and the AST consumer ----

class ErrorRecorder : public clang::DiagnosticConsumer {
 public:
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error) return;
    if (level == clang::DiagnosticsEngine::Fatal) fatal = true;
    llvm::SmallString<160> message;
    info.FormatDiagnostic(message);
    if (first_error.empty()) first_error = message.str().str();
    if (!info.hasSourceManager() || info.getLocation().isInvalid()) return;
    const clang::SourceManager& sm = info.getSourceManager();
    clang::SourceLocation loc = sm.getExpansionLoc(info.getLocation());
    if (sm.getFileID(loc) != sm.getMainFileID()) return;
    errors.push_back({sm.getFileOffset(loc), message.str().str()});
  }
  bool fatal = false;
  std::string first_error;
  std::vector<ClangError> errors;
};

class IncludeRecorder : public clang::PPCallbacks {
 public:
  IncludeRecorder(clang::SourceManager& sm, std::vector<std::pair<unsigned, std::string>>& out) : sm_(sm), out_(out) {}
  void InclusionDirective(clang::SourceLocation hash, const clang::Token&, llvm::StringRef name, bool,
                          clang::CharSourceRange, clang::OptionalFileEntryRef, llvm::StringRef, llvm::StringRef,
                          const clang::Module*, bool, clang::SrcMgr::CharacteristicKind) override {
    if (hash.isFileID() && sm_.getFileID(hash) == sm_.getMainFileID())
      out_.emplace_back(sm_.getFileOffset(hash), name.str());
  }

 private:
  clang::SourceManager& sm_;
  std::vector<std::pair<unsigned, std::string>>& out_;
};

struct RunState {
  CollectorInput input;
  ErrorRecorder* recorder = nullptr;
  size_t line_count = 1;
  bool collected = false;
  std::string why;
  int64_t ast_bytes_charged = 0;  // the AST's memory, charged to the file's budget while it lives
};

class CollectConsumer : public clang::ASTConsumer {
 public:
  CollectConsumer(RunState& state, clang::SourceManager& sm) : state_(state), sm_(sm) {}
  void Initialize(clang::ASTContext& context) override { context_ = &context; }
  bool HandleTopLevelDecl(clang::DeclGroupRef group) override {
    // The per-file deadline and memory limit, checked between top-level declarations: returning
    // false makes the parser stop, and the pipeline reports the limit.
    if (context_) {
      const auto ast =
          static_cast<int64_t>(context_->getASTAllocatedMemory() + context_->getSideTableAllocatedMemory());
      budget_charge(ast - state_.ast_bytes_charged);
      state_.ast_bytes_charged = ast;
    }
    if (budget_exhausted()) return false;
    for (clang::Decl* d : group) {
      // Sema hands over instantiated templates at the end of the TU; facts come from patterns.
      if (const auto* fd = llvm::dyn_cast<clang::FunctionDecl>(d); fd && fd->isTemplateInstantiation()) continue;
      clang::SourceLocation loc = sm_.getExpansionLoc(d->getLocation());
      if (loc.isValid() && sm_.getFileID(loc) == sm_.getMainFileID()) state_.input.top_level.push_back(d);
    }
    return true;
  }
  void HandleTranslationUnit(clang::ASTContext& context) override {
    if (budget_exhausted()) {
      state_.why = "the per-file limit was hit";
      return;
    }
    const ErrorRecorder& rec = *state_.recorder;
    size_t errors = rec.errors.size();
    if (rec.fatal) {
      state_.why = "Clang stopped: " + rec.first_error;
      return;
    }
    if (errors >= 25 && errors * 4 >= state_.line_count) {
      state_.why = "Clang reported " + std::to_string(errors) + " errors in " + std::to_string(state_.line_count) +
                   " lines; first: " + rec.first_error;
      return;
    }
    state_.input.errors = rec.errors;
    collect_facts(context, state_.input);
    state_.collected = true;
  }

 private:
  RunState& state_;
  clang::SourceManager& sm_;
  clang::ASTContext* context_ = nullptr;
};

class CollectAction : public clang::ASTFrontendAction {
 public:
  explicit CollectAction(RunState& state) : state_(state) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci, llvm::StringRef) override {
    ci.getPreprocessor().addPPCallbacks(
        std::make_unique<IncludeRecorder>(ci.getSourceManager(), state_.input.includes));
    ci.getPreprocessor().addPPCallbacks(record_preprocessor(ci.getSourceManager(), state_.input.preprocessor));
    return std::make_unique<CollectConsumer>(state_, ci.getSourceManager());
  }

 private:
  RunState& state_;
};

// Writes the PCH to a chosen path.
class WritePchAction : public clang::GeneratePCHAction {
 public:
  explicit WritePchAction(std::string path) : path_(std::move(path)) {}
  bool BeginInvocation(clang::CompilerInstance& ci) override {
    ci.getFrontendOpts().OutputFile = path_;
    return clang::GeneratePCHAction::BeginInvocation(ci);
  }

 private:
  std::string path_;
};

// ---- invocations ----

std::string shim_dir_of(const CudaOptions& o) {
  return o.shim_dir.empty() ? kgate::default_shim_dir().string() : o.shim_dir;
}

std::vector<std::string> shim_args(const std::string& shims) {
  return {"clang++", "-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "-std=c++17", "-fsyntax-only", "-w",
          "-Wno-unknown-cuda-version", "-ferror-limit=0", "-fno-spell-checking", "-resource-dir",
          KGATE_CLANG_RESOURCE_DIR, "-D__CUDACC__", "-D__NVCC__", "-DTORCH_EXTENSION_NAME=kgate_extension",
          "-DWITH_CUDA",
          // The shims replace the C++ standard library too (see shims/std/kgate_std.h: speed).
          "-nostdinc++", "-isystem", shims + "/std", "-isystem", shims, "-idirafter", kMissingRoot};
}

// nvcc flags that name include paths, macros and the standard survive; the rest is nvcc's own.
std::vector<std::string> rewrite_compile_command(const std::vector<std::string>& cmd) {
  std::vector<std::string> out = {"clang++",
                                  "-x",
                                  "cuda",
                                  "--cuda-host-only",
                                  "-nocudalib",
                                  "-fsyntax-only",
                                  "-w",
                                  "-Wno-unknown-cuda-version",
                                  "-ferror-limit=0",
                                  "-resource-dir",
                                  KGATE_CLANG_RESOURCE_DIR,
                                  "-idirafter",
                                  kMissingRoot};
  for (size_t i = 1; i < cmd.size(); ++i) {
    const std::string& a = cmd[i];
    auto takes_next = [&](const char* flag) { return a == flag && i + 1 < cmd.size(); };
    if (takes_next("-I") || takes_next("-isystem") || takes_next("-D") || takes_next("-include") ||
        takes_next("-iquote") || takes_next("-U")) {
      out.push_back(a);
      out.push_back(cmd[++i]);
    } else if (a.rfind("-I", 0) == 0 || a.rfind("-D", 0) == 0 || a.rfind("-U", 0) == 0 || a.rfind("-std=", 0) == 0 ||
               a.rfind("--std=", 0) == 0 || a.rfind("-isystem", 0) == 0) {
      out.push_back(a.rfind("--std=", 0) == 0 ? a.substr(1) : a);
    }
  }
  return out;
}

clang::IntrusiveRefCntPtr<clang::DiagnosticsEngine> quiet_diagnostics() {
  static clang::IgnoringDiagConsumer ignore;
  return clang::CompilerInstance::createDiagnostics(new clang::DiagnosticOptions(), &ignore, false);
}

std::shared_ptr<clang::CompilerInvocation> make_invocation(const std::vector<std::string>& args,
                                                           const std::string& input) {
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  argv.push_back(input.c_str());
  clang::CreateInvocationOptions opts;
  opts.Diags = quiet_diagnostics();
  opts.RecoverOnError = true;
  std::shared_ptr<clang::CompilerInvocation> inv = clang::createInvocation(argv, std::move(opts));
  if (inv) {
    inv->getFrontendOpts().DisableFree = false;
    inv->getDiagnosticOpts().ShowCarets = false;  // no "N errors generated" on stderr
  }
  return inv;
}

class Engine {
 public:
  bool run(const SourceFile& host, FactSet& facts, int module, const CudaOptions& options, std::string& why) {
    const Module& m = facts.modules[module];
    std::string main_path;
    if (module == 0 && m.map.empty()) {
      main_path = host.path;
      if (!llvm::sys::path::is_absolute(main_path)) {
        llvm::SmallString<256> abs(main_path);
        (void)llvm::sys::fs::make_absolute(abs);
        main_path = std::string(abs);
      }
      std::string ext = llvm::sys::path::extension(main_path).str();
      if (ext != ".cu" && ext != ".cuh" && ext != ".cpp" && ext != ".cc" && ext != ".cxx" && ext != ".h" &&
          ext != ".hpp")
        main_path += ".cu";
    } else {
      main_path =
          std::string(kEmbeddedRoot) + "/module" + std::to_string(module) + (m.role == "cpp_sources" ? ".cpp" : ".cu");
    }

    std::shared_ptr<clang::CompilerInvocation> inv;
    bool shims = true;
    if (!options.compile_commands.empty() && module == 0 && m.map.empty()) {
      if (auto args = compile_command_for(options.compile_commands, main_path)) {
        inv = make_invocation(*args, main_path);
        shims = !inv;
      }
    }
    if (!inv) inv = shim_invocation(options, main_path);
    if (!inv) {
      why = "Clang rejected its own command line";
      return false;
    }
    for (const std::string& d : command_line_defines(facts, m)) inv->getPreprocessorOpts().addMacroDef(d);

    const size_t sizes[] = {facts.functions.size(), facts.calls.size(), facts.launches.size(),
                            facts.globals.size(),   facts.casts.size(), facts.returns.size(),
                            facts.strings.size(),   facts.names.size(), facts.imports.size()};
    RunState state;
    state.input.host = &host;
    state.input.facts = &facts;
    state.input.module = module;
    state.line_count = 1 + std::count(m.text.begin(), m.text.end(), '\n');
    ErrorRecorder recorder;
    state.recorder = &recorder;

    auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
    overlay->pushOverlay(llvm::makeIntrusiveRefCnt<MissingHeaderFS>());
    auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    memory->addFile(main_path, 0, llvm::MemoryBuffer::getMemBufferCopy(m.text, main_path));
    overlay->pushOverlay(memory);

    clang::CompilerInstance ci(pch_ops_);
    ci.setInvocation(inv);
    ci.createDiagnostics(&recorder, false);
    ci.createFileManager(overlay);
    CollectAction action(state);
    ci.ExecuteAction(action);
    budget_charge(-state.ast_bytes_charged);  // the AST goes with the CompilerInstance
    auto rollback = [&] {
      facts.functions.resize(sizes[0]);
      facts.calls.resize(sizes[1]);
      facts.launches.resize(sizes[2]);
      facts.globals.resize(sizes[3]);
      facts.casts.resize(sizes[4]);
      facts.returns.resize(sizes[5]);
      facts.strings.resize(sizes[6]);
      facts.names.resize(sizes[7]);
      facts.imports.resize(sizes[8]);
    };
    if (!state.collected && budget_exhausted()) {
      rollback();
      why = "the per-file limit was hit";
      return false;
    }
    if (!state.collected && shims && use_pch_ && pch_failed(recorder)) {
      // A stale or foreign PCH: rebuild once, else go on without one.
      rollback();
      rebuild_pch(options);
      return run(host, facts, module, options, why);
    }
    if (!state.collected) {
      rollback();
      why = state.why.empty() ? "Clang produced no AST" : state.why;
      return false;
    }
    return true;
  }

 private:
  std::mutex mutex_;
  std::shared_ptr<clang::PCHContainerOperations> pch_ops_ = std::make_shared<clang::PCHContainerOperations>();
  std::map<std::string, std::shared_ptr<clang::CompilerInvocation>> base_;  // by shim dir
  std::map<std::string, std::unique_ptr<clang::tooling::CompilationDatabase>> databases_;
  std::string pch_path_;
  std::atomic<bool> use_pch_{true};
  bool pch_built_ = false;

  static bool pch_failed(const ErrorRecorder& r) {
    for (const auto& e : r.errors)
      if (e.message.find("precompiled") != std::string::npos || e.message.find(".pch") != std::string::npos)
        return true;
    return r.first_error.find("precompiled") != std::string::npos || r.first_error.find(".pch") != std::string::npos ||
           r.first_error.find("PCH") != std::string::npos;
  }

  std::optional<std::vector<std::string>> compile_command_for(const std::string& dir, const std::string& file) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& db = databases_[dir];
    if (!db) {
      std::string err;
      db = clang::tooling::CompilationDatabase::loadFromDirectory(dir, err);
      if (!db) return std::nullopt;
    }
    auto cmds = db->getCompileCommands(file);
    if (cmds.empty()) return std::nullopt;
    return rewrite_compile_command(cmds.front().CommandLine);
  }

  std::string cache_path(const CudaOptions& options, const std::vector<std::string>& args) const {
    std::string dir = options.cache_dir;
    if (dir.empty()) {
      llvm::SmallString<128> tmp;
      llvm::sys::path::system_temp_directory(true, tmp);
      dir = std::string(tmp) + "/kgate-" + std::to_string(getuid());
    }
    (void)llvm::sys::fs::create_directories(dir);
    std::string key;
    for (const auto& a : args) key += a + "\n";
    key += CLANG_VERSION_STRING;
    key += "pch-v3";
    return dir + "/shims-" + llvm::utohexstr(llvm::hash_value(key)) + ".pch";
  }

  // The shim invocation, with the prelude precompiled (built on first use, reused across runs).
  std::shared_ptr<clang::CompilerInvocation> shim_invocation(const CudaOptions& options, const std::string& main_path) {
    std::string shims = shim_dir_of(options);
    std::shared_ptr<clang::CompilerInvocation> base;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto& b = base_[shims + (options.use_pch && use_pch_ ? "#pch" : "")];
      if (!b) {
        std::vector<std::string> args = shim_args(shims);
        b = make_invocation(args, main_path);
        if (b && options.use_pch && use_pch_) {
          pch_path_ = cache_path(options, args);
          if (!llvm::sys::fs::exists(pch_path_) && !build_pch(args, shims, pch_path_)) use_pch_ = false;
          if (use_pch_) b->getPreprocessorOpts().ImplicitPCHInclude = pch_path_;
        }
        if (b && !(options.use_pch && use_pch_))
          b->getPreprocessorOpts().Includes.push_back(shims + "/kgate_prelude.h");
      }
      base = b;
    }
    if (!base) return nullptr;
    auto inv = std::make_shared<clang::CompilerInvocation>(*base);
    inv->getFrontendOpts().Inputs = {clang::FrontendInputFile(main_path, clang::InputKind(clang::Language::CUDA))};
    return inv;
  }

  bool build_pch(const std::vector<std::string>& args, const std::string& shims, const std::string& out) {
    std::string prelude = shims + "/kgate_prelude.h";
    auto inv = make_invocation(args, prelude);
    if (!inv) return false;
    inv->getFrontendOpts().Inputs = {
        clang::FrontendInputFile(prelude, clang::InputKind(clang::Language::CUDA, clang::InputKind::Source, false,
                                                           clang::InputKind::HeaderUnit_None, true))};
    inv->getFrontendOpts().ProgramAction = clang::frontend::GeneratePCH;
    std::string tmp = out + ".tmp" + std::to_string(getpid());
    clang::CompilerInstance ci(pch_ops_);
    ci.setInvocation(inv);
    ErrorRecorder recorder;
    ci.createDiagnostics(&recorder, false);
    WritePchAction action(tmp);
    bool ok = ci.ExecuteAction(action) && recorder.errors.empty() && !recorder.fatal;
    if (!ok) {
      (void)llvm::sys::fs::remove(tmp);
      // Never silent: without the precompiled header every translation unit parses the prelude as
      // text, about ten times slower (docs/performance.md), and a prelude error is a shim defect.
      llvm::errs() << "kgate: warning: the Clang engine's shim prelude (" << prelude << ") did not compile ("
                   << (recorder.first_error.empty() ? std::string("no diagnostic") : recorder.first_error)
                   << "): the Clang pass runs without its precompiled header\n";
      return false;
    }
    return !llvm::sys::fs::rename(tmp, out);
  }

  void rebuild_pch(const CudaOptions& options) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (pch_built_ || pch_path_.empty()) {
      use_pch_ = false;
      base_.clear();
      return;
    }
    pch_built_ = true;
    std::string shims = shim_dir_of(options);
    (void)llvm::sys::fs::remove(pch_path_);
    if (!build_pch(shim_args(shims), shims, pch_path_)) use_pch_ = false;
    base_.clear();
  }
};

Engine& engine() {
  static Engine e;
  return e;
}

bool run_clang(const SourceFile& host, FactSet& facts, int module, const CudaOptions& options, std::string& why) {
  return engine().run(host, facts, module, options, why);
}

}  // namespace

ClangEngineFn clang_engine_function() { return &run_clang; }

void clang_init() { register_clang_engine(&run_clang); }

}  // namespace kgate::cuda
