// The Collector (private to clang_collector*.cpp): a RecursiveASTVisitor that turns one translation
// unit's AST into KernelGate facts. Its members are defined in three files by concern:
//   clang_collector.cpp        traversal, locations, guards, functions, the end of the unit;
//   clang_collector_calls.cpp  call resolution, constructions, casts, names;
//   clang_collector_writes.cpp kernel writes, launches, static state, writes and returns;
//   clang_collector_indirect.cpp calls through values: functions named as values, variables that
//                              hold callables, functors, c10::Dispatcher schemas, asm labels.
#pragma once

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include "analyzers/cuda/clang/clang_collector.h"
#include "analyzers/cuda/cuda_common.h"

namespace kgate::cuda::collector {

using namespace clang;

// An expression without the wrappers of copies and temporaries around it (clang_collector_reads.cpp).
const Expr* strip_copies(const Expr* e);

// Qualified name without template arguments, anonymous/inline namespaces or extern "C" blocks:
// "at::Tensor::to", "std::vector::push_back", "cublasSgemm_v2".
inline std::string qualified_name(const NamedDecl* d) {
  if (!d) return {};
  std::vector<std::string> parts;
  if (const auto* ctor = dyn_cast<CXXConstructorDecl>(d)) {
    parts.push_back(ctor->getParent()->getNameAsString());
    d = ctor->getParent();
  } else {
    parts.push_back(d->getNameAsString());
  }
  for (const DeclContext* dc = d->getDeclContext(); dc; dc = dc->getParent()) {
    if (const auto* ns = dyn_cast<NamespaceDecl>(dc)) {
      if (ns->isAnonymousNamespace() || ns->isInline()) continue;
      parts.push_back(ns->getNameAsString());
    } else if (const auto* rd = dyn_cast<RecordDecl>(dc)) {
      if (rd->getName().empty()) continue;
      parts.push_back(rd->getNameAsString());
    } else if (isa<FunctionDecl>(dc)) {
      break;  // local class: its name is enough
    }
  }
  std::string out;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    if (!out.empty()) out += "::";
    out += *it;
  }
  return out;
}

inline std::string type_name(QualType t) {
  if (t.isNull()) return {};
  t = t.getNonReferenceType().getUnqualifiedType();
  if (const auto* rd = t->getAsRecordDecl()) return qualified_name(rd);
  if (const auto* tt = t->getAs<TypedefType>()) return qualified_name(tt->getDecl());
  if (const auto* et = t->getAs<EnumType>()) return qualified_name(et->getDecl());
  return t.getAsString();
}

inline bool is_tensor_record(QualType t) {
  if (t.isNull()) return false;
  t = t.getNonReferenceType();
  if (const auto* rd = t->getAsCXXRecordDecl()) return qualified_name(rd) == "at::Tensor";
  return false;
}

inline std::string trim_spaces(const std::string& s) {
  std::string out;
  for (char c : s)
    if (c != ' ' && c != '\n' && c != '\t' && c != '\r') out += c;
  return out;
}

enum class LoopKind { None, Loop };

class Collector : public RecursiveASTVisitor<Collector> {
 public:
  Collector(ASTContext& ctx, CollectorInput& in)
      : ctx_(ctx),
        sm_(ctx.getSourceManager()),
        in_(in),
        facts_(*in.facts),
        mod_(facts_.modules[in.module]),
        main_(sm_.getMainFileID()) {}

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }
  bool shouldWalkTypesOfTypeLocs() const { return false; }

  void run() {
    for (Decl* d : in_.top_level) TraverseDecl(d);
    finish();
  }

  // Every function definition recorded, with its index in facts.functions (for the metrics).
  const std::vector<std::pair<const FunctionDecl*, int>>& definitions() const { return definitions_; }

  // ---- declarations ----

  bool TraverseDecl(Decl* d);

  bool VisitVarDecl(VarDecl* vd);

  // ---- statements: a parent stack for guards ----

  bool dataTraverseStmtPre(Stmt* s) {
    stack_.push_back(s);
    return true;
  }
  bool dataTraverseStmtPost(Stmt*) {
    stack_.pop_back();
    return true;
  }

  bool VisitCallExpr(CallExpr* e);

  bool VisitRecoveryExpr(RecoveryExpr* e);

  bool VisitCXXConstructExpr(CXXConstructExpr* e);

  bool VisitBinaryOperator(BinaryOperator* op) {
    if (op->isAssignmentOp()) note_write(op->getLHS(), op->getRHS(), !op->isCompoundAssignmentOp());
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator* op) {
    if (op->isIncrementDecrementOp()) note_write(op->getSubExpr(), nullptr);
    return true;
  }

  bool VisitReturnStmt(ReturnStmt* r) {
    if (current_function() >= 0 && !in_lambda() && in_main(r->getBeginLoc())) state_.returns.push_back({r, guard()});
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr* e);

  bool VisitMemberExpr(MemberExpr* e);

  bool VisitStringLiteral(StringLiteral* s);

  // `(cudaLimit)6`, `static_cast<cudaLaunchAttributeID>(1)`: a CUDA feature chosen by its number is
  // recorded by its enumerator's name, as if it were written.
  bool VisitExplicitCastExpr(ExplicitCastExpr* e);

  // Launch arguments: a variable named inside them was handed to a kernel (it is "written").
  bool TraverseCUDAKernelCallExpr(CUDAKernelCallExpr* e, DataRecursionQueue* = nullptr);

 private:
  struct PendingReturn {
    ReturnStmt* stmt;
    Guard guard;
  };
  struct FunctionState {
    const FunctionDecl* decl = nullptr;
    std::map<const VarDecl*, std::vector<std::string>> origins;
    std::set<const VarDecl*> written_vars;
    // Tensor locals handed whole to a free function, with (callee, position): written or not is
    // decided at link (Return::handed).
    std::map<const VarDecl*, std::set<std::pair<std::string, size_t>>> handed_vars;
    std::map<const VarDecl*, std::set<const VarDecl*>> depends_on;  // a local's value names these
    // Pointer locals bound to a tensor's storage (`float* p = x.data_ptr<float>();`): the tensor
    // expression, until the local is assigned something else.
    std::map<const VarDecl*, const Expr*> storage_of;
    std::vector<PendingReturn> returns;
  };

  ASTContext& ctx_;
  SourceManager& sm_;
  CollectorInput& in_;
  FactSet& facts_;
  const Module& mod_;
  FileID main_;
  std::vector<Stmt*> stack_;
  std::vector<int> fn_stack_;
  FunctionState state_;
  int in_launch_args_ = 0;
  std::map<const FunctionDecl*, int> function_index_;  // canonical decl -> facts index
  std::vector<std::pair<int, const FunctionDecl*>> pending_launch_kernels_;
  std::map<const VarDecl*, int> global_index_;
  std::set<const VarDecl*> mutated_globals_;
  std::vector<std::pair<unsigned, unsigned>> callee_ranges_;  // main-file offsets of recorded callees
  std::vector<std::tuple<unsigned, unsigned, int>> function_ranges_;
  std::vector<std::pair<const FunctionDecl*, int>> definitions_;
  std::set<const Expr*> callee_refs_;  // DeclRefExprs that are the callee of a call (not a value)

  int current_function() const { return fn_stack_.empty() ? -1 : fn_stack_.back(); }

  static bool is_lambda_operator(const FunctionDecl* fd) {
    const auto* md = dyn_cast<CXXMethodDecl>(fd);
    return md && md->getParent() && md->getParent()->isLambda();
  }

  // ---- locations ----

  bool in_main(SourceLocation loc) const {
    if (loc.isInvalid()) return false;
    return sm_.getFileID(sm_.getExpansionLoc(loc)) == main_;
  }

  // Main-file byte range of a source range (macro ranges widen to the whole invocation).
  std::optional<std::pair<unsigned, unsigned>> offsets(SourceRange r) const;

  Span span_of(SourceRange r) const;

  std::string text_of(SourceRange r) const;

  // The text of `whole` after sub-expression `sub` (to see whether a '(' follows a name).
  std::string text_after(SourceRange whole, const Expr* sub) const;

  // ---- guards ----

  std::optional<bool> fold_bool(const Expr* e) const;

  std::optional<int64_t> fold_int(const Expr* e) const;

  static bool is_shape_call(const Expr* e);

  bool mentions_shape(const Stmt* s) const;

  // A comparison of a shape with a negative bound (`x.size(0) < 0`) can never hold.
  bool impossible_shape(const Expr* cond) const;

  // Whether statement `s` always leaves the block (return, throw, exit()).
  bool terminates(const Stmt* s) const;

  Guard guard() const;

  bool in_loop() const;
  bool varies_in_loop(const Expr* address) const;

  bool in_lambda() const {
    return std::any_of(stack_.begin(), stack_.end(), [](const Stmt* s) { return isa<LambdaExpr>(s); });
  }

  // ---- functions ----

  int add_function(const FunctionDecl* fd);

  void note_dependencies(const VarDecl* vd, const Stmt* s);

  // A buffer is written when anything derived from it (`float* p = out.data_ptr<float>()`) is.
  void propagate_written();

  void finish_function(const FunctionDecl* fd, int idx);

  // ---- kernel write analysis ----

  // The declaration an lvalue or pointer expression is rooted in (`out[i]`, `*(p + 1)`, `s.ptr[i]`).
  static const ValueDecl* root_decl(const Expr* e);
  static const Expr* member_base(const Expr* callee);
  static int param_index_of(const Expr* e);
  // Not static: a pointer local bound to a tensor's storage (FunctionState::storage_of) stands for it.
  const Expr* storage_root(const Expr* e, int depth = 0) const;

  static bool references_any(const Stmt* s, const std::set<const ValueDecl*>& decls);

  bool writes_through_parameter(const FunctionDecl* fd) const;
  // Tensor parameters whose data the body never reads (clang_collector_reads.cpp): "param-unread:<i>",
  // or "param-handed:<i>:<j>:<callee>" when it only hands them whole to functions it calls directly.
  std::vector<std::string> param_read_decorators(const FunctionDecl* fd) const;

  static bool contains_errors(const Stmt* s);
  bool body_has_errors(const FunctionDecl* fd) const;

  void scan_writes(const Stmt* s, std::set<const ValueDecl*>& derived, bool& found) const;

  // `p = q` or `p++` on a local pointer variable itself rebinds it; it does not write memory.
  static bool is_plain_local_rebind(const Expr* lhs);

  // ---- calls ----

  struct Resolution {
    std::string resolved;
    std::string name;  // last component
    SourceLocation name_loc;
    ReceiverKind receiver = ReceiverKind::None;
    bool local_target = false;
  };

  ReceiverKind receiver_of(const Expr* base) const;

  std::string qualifier_text(NestedNameSpecifier* q) const;

  static std::string unique_decl_name(const OverloadExpr* o);

  bool defined_here(const FunctionDecl* fd) const;

  Resolution resolve(const Expr* callee_expr) const;

  bool token_pasted(SourceLocation loc) const {
    if (loc.isInvalid() || !loc.isMacroID()) return false;
    return sm_.isWrittenInScratchSpace(sm_.getSpellingLoc(loc));
  }

  void collect_arg_names(const Stmt* s, std::vector<std::string>& out) const;

  void add_call(const Expr* call, const Expr* callee);

  // The operands of a call: the object of a member call first, then the arguments.
  static std::vector<const Expr*> operands_of(const Expr* call);

  static const Expr* strip(const Expr* e);

  // Sizes of one element: `{}`, `{1}`, `{1, 1}` or `1`.
  static bool one_element_sizes(const Expr* e);

  // A tensor expression that holds one element: a 0-d or [1] allocation, a full reduction with no
  // dimension argument, arithmetic of such, or a local initialised to one; numbers count too.
  bool one_element(const Expr* e, int depth = 0) const;

  void add_construction(const CXXConstructExpr* e, const std::string& cls);

  // Records a call fact at the current place: in a loop or not, the function, module and guard, and
  // the span of `range`.
  void place_call(Call c, SourceRange range);

  // Precision conversions, launch APIs, and what a call does to the variables it names.
  void note_call_effects(const Expr* call, const Expr* callee, const Resolution& r,
                         const std::vector<const Expr*>& args, const std::vector<std::string>& names);

  void mark_vars(const Stmt* s);

  std::optional<std::string> dtype_constant(const Expr* a) const;

  void note_operator_cast(const CXXOperatorCallExpr* op, const FunctionDecl* fd);

  void add_cast(const std::string& dtype, const std::string& via, SourceRange range, bool setup = false);

  void add_name(const std::string& name, SourceRange range);

  // ---- calls through values (clang_collector_indirect.cpp) ----

  // The function a callee expression names directly (`f`, `&f`, `*f`), to tell calls from values.
  void note_callee_ref(const CallExpr* e);

  // A function named as a value (`&at::matmul` in a table, an argument, a std::function): a call of
  // it where the value is taken. Kernels and functions handed to a Python binding are not counted.
  void note_function_value(const DeclRefExpr* e);

  // A call through a variable of namespace or class scope that holds callables (`table[i](a, b)`,
  // `g(a, b)` on a std::function, `ops.mm(a, b)`): a call of each function its initializer names or
  // its lambdas call; with none, an unresolved call.
  void follow_callable_variable(const CallExpr* e);

  // A call of a functor's operator() defined in the submission.
  bool is_local_functor_call(const CXXOperatorCallExpr* op) const;

  static void collect_functions(const Stmt* s, std::vector<const FunctionDecl*>& out);
  static bool has_lambda(const Stmt* s);

  // The enumerator an integer cast to a CUDA enum type names (`(cudaLimit)6` -> cudaLimitPersistingL2CacheSize).
  std::string cast_enumerator(const Expr* e) const;

  // `at::Tensor f(...) __asm__("_ZN2at6matmul...")`: the symbol the declaration is bound to, as a
  // qualified name ("at::matmul"), or empty.
  std::string asm_label_target(const FunctionDecl* fd) const;

  // ---- launches ----

  // Whether a grid or block expression provably has zero blocks in some dimension.
  bool folds_to_zero(const Expr* e, int depth = 0) const;

  bool folds_to_zero_var(const Expr* e, int depth) const;

  // A local whose value changes after its declaration (`dim3 g(0); g.x = n;`) cannot be folded.
  bool mutated_locally(const VarDecl* vd) const {
    if (!state_.decl || !state_.decl->getBody()) return true;
    return assigns_to(state_.decl->getBody(), vd);
  }

  static bool assigns_to(const Stmt* s, const VarDecl* vd);

  std::string kernel_name(const Expr* callee, const FunctionDecl** decl) const;

  void add_chevron_launch(const CUDAKernelCallExpr* k);

  void add_api_launch(const Expr* call, const LaunchApi& api, const std::vector<const Expr*>& args,
                      const std::string& name);

  static std::string trim_grid(const std::string& s);

  void finish_launch(Launch& l, const FunctionDecl* decl, SourceRange range);

  // ---- state, writes, returns ----

  void add_global(const VarDecl* vd);

  // `lhs = rhs` (replaces: lhs now holds rhs's value and origin) or `lhs += rhs` (lhs keeps its origin).
  void note_write(const Expr* lhs, const Expr* rhs, bool replaces = true);

  void note_operator_write(const CXXOperatorCallExpr* op) {
    if (!op->isAssignmentOp() || op->getNumArgs() < 2) return;
    note_write(op->getArg(0), op->getArg(1), op->getOperator() == OO_Equal);
  }

  // Which calls a local's value came from (`auto y = torch::empty_like(x)` -> torch's empty_like).
  // Whether the statement being visited runs on every path through its function: no branch, loop,
  // conditional, short circuit, try or lambda around it.
  bool on_every_path() const;
  void note_local_origin(const VarDecl* vd, const Expr* init);

  std::vector<std::string> origins_of(const Expr* e) const;

  static bool is_view_method(const std::string& n);

  // The variable a returned expression names, through view-like methods (`out.view({n})`).
  static const ValueDecl* returned_decl(const Expr* e);

  void add_return(const PendingReturn& pr, int fn);

  // ---- end of the translation unit ----

  void finish();

  // Tensor-core precision named by types: WMMA fragments a variable is declared with, and CuTe MMA
  // atoms anywhere in the file's tokens (an atom the shims do not declare is still a name there).
  void note_fragment_precision(const VarDecl* vd);
  void note_mma_atoms();
  void add_tensor_core_cast(const TensorCorePrecision& p, int function, SourceRange range);
  std::set<std::tuple<int, std::string, std::string>> tensor_core_seen_;

  // Names Clang dropped with no recovery node (`unknown_ns::f(x);` parses as a declaration):
  // read the qualified name at each error location and record it as an unresolved call.
  void recover_dropped_calls();
};

}  // namespace kgate::cuda::collector
