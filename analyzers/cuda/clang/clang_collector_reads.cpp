// The Collector's parameter reads: tensor parameters of a host function whose data the body never
// reads ("param-unread:<i>", the same fact as the tree-sitter engine's ts_cuda_reads.cpp). A use is a
// read unless it asks for metadata (x.size(0), x.options(), through macros such as CHECK_INPUT too,
// which Clang sees expanded) or hands the tensor to a maker of a like-shaped one (at::empty_like(x)).
#include "analyzers/cuda/clang/clang_collector_impl.h"

namespace kgate::cuda::collector {

namespace {

using ParamIndex = std::map<const ParmVarDecl*, size_t>;

const ParmVarDecl* param_ref(const Expr* e, const ParamIndex& params) {
  if (!e) return nullptr;
  const auto* dr = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  const auto* p = dr ? dyn_cast<ParmVarDecl>(dr->getDecl()) : nullptr;
  return p && params.count(p) ? p : nullptr;
}

void scan_reads(const Stmt* s, const ParamIndex& params, std::vector<char>& read) {
  if (!s) return;
  if (const auto* mc = dyn_cast<CXXMemberCallExpr>(s)) {
    const CXXMethodDecl* md = mc->getMethodDecl();
    if (md && md->getDeclName().isIdentifier() && param_ref(mc->getImplicitObjectArgument(), params) &&
        tensor_metadata_only_method(md->getName())) {
      for (const Expr* a : mc->arguments()) scan_reads(a, params, read);
      return;
    }
  } else if (const auto* ce = dyn_cast<CallExpr>(s)) {
    const FunctionDecl* f = ce->getDirectCallee();
    if (f && ce->getNumArgs() > 0 && like_maker(qualified_name(f)) && param_ref(ce->getArg(0), params)) {
      for (unsigned i = 1; i < ce->getNumArgs(); ++i) scan_reads(ce->getArg(i), params, read);
      return;
    }
  }
  if (const auto* dr = dyn_cast<DeclRefExpr>(s))
    if (const auto* p = dyn_cast<ParmVarDecl>(dr->getDecl()))
      if (auto it = params.find(p); it != params.end()) read[it->second] = 1;
  // A lambda reads what its body reads (a captured parameter is named there as itself) and what its
  // init-captures are initialised from; capturing alone ([&], [x]) copies no values.
  if (const auto* le = dyn_cast<LambdaExpr>(s)) {
    for (const LambdaCapture& c : le->captures())
      if (c.capturesVariable())
        if (const auto* v = dyn_cast<VarDecl>(c.getCapturedVar()); v && v->isInitCapture())
          scan_reads(v->getInit(), params, read);
    scan_reads(le->getBody(), params, read);
    return;
  }
  for (const Stmt* c : s->children()) scan_reads(c, params, read);
}

}  // namespace

std::vector<size_t> Collector::unread_tensor_params(const FunctionDecl* fd) const {
  std::vector<size_t> unread;
  if (!fd->getBody() || contains_errors(fd->getBody()) || body_has_errors(fd)) return unread;
  ParamIndex params;
  for (unsigned i = 0; i < fd->getNumParams(); ++i) {
    const ParmVarDecl* p = fd->getParamDecl(i);
    if (!p->getName().empty() && is_tensor_record(p->getType())) params[p] = i;
  }
  if (params.empty()) return unread;
  std::vector<char> read(fd->getNumParams(), 0);
  scan_reads(fd->getBody(), params, read);
  for (const auto& [p, i] : params)
    if (!read[i]) unread.push_back(i);
  std::sort(unread.begin(), unread.end());
  return unread;
}

}  // namespace kgate::cuda::collector
