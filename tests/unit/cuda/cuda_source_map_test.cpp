// Embedded sources: a finding in a load_inline C++ string lands on the .py line, and strings of one
// role are analysed as the one translation unit load_inline builds.
#include <gtest/gtest.h>

#include "analyzers/python/python_facts.h"
#include "tests/unit/cuda/cuda_test_support.h"

namespace kgate::cuda {
namespace {

using testing::find_call;
using testing::line_of;

// Builds the host file and one embedded module by hand: the decoded text maps byte for byte onto
// the inside of the triple-quoted literal.
FactSet embed(const SourceFile& host, const std::string& open_quote) {
  FactSet f;
  Module py;
  py.language = Language::Python;
  py.role = "host";
  py.text = host.text;
  f.modules.push_back(py);
  const size_t begin = host.text.find(open_quote) + open_quote.size();
  const size_t end = host.text.find("\"\"\"", begin);
  Module m;
  m.language = Language::Cuda;
  m.role = "cuda_sources";
  m.text = host.text.substr(begin, end - begin);
  m.map.append_run(static_cast<uint32_t>(begin), static_cast<uint32_t>(end - begin));
  m.span = host.span(static_cast<uint32_t>(begin), static_cast<uint32_t>(end));
  m.extension = 0;
  f.modules.push_back(m);
  Extension e;
  e.name = "fused";
  e.functions = {"fwd"};
  f.extensions.push_back(e);
  return f;
}

TEST(CudaSourceMap, CallInEmbeddedStringMapsToPythonLine) {
  const std::string py =
      "import torch\n"
      "src = r\"\"\"\n"
      "#include <torch/extension.h>\n"
      "torch::Tensor fwd(torch::Tensor a) {\n"
      "    return at::matmul(a, a);\n"
      "}\n"
      "\"\"\"\n";
  SourceFile host("/tmp/sub.py", py);
  FactSet f = embed(host, "src = r\"\"\"");
  std::vector<Diagnostic> diags;
  CudaOptions options;
  options.force_tree_sitter = !clang_available();
  extract_facts(host, f, diags, options);
  const Call* c = find_call(f, "at::matmul");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->span.line, line_of(py, "at::matmul"));
  EXPECT_EQ(c->span.col, 12u);
  EXPECT_EQ(c->module, 1);
  const Function* fwd = testing::find_function(f, "fwd");
  ASSERT_NE(fwd, nullptr);
  EXPECT_EQ(fwd->span.line, line_of(py, "torch::Tensor fwd"));
}

TEST(CudaSourceMap, LoadInlineEndToEnd) {
  const std::string py = R"(import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

kernel_part = r"""
#include <torch/extension.h>
__global__ void k(const float* x, float* y, int n) { int i = threadIdx.x; if (i < n) y[i] = x[i]; }
"""
host_part = r"""
torch::Tensor fwd(torch::Tensor x) {
    auto y = torch::empty_like(x);
    k<<<1, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    return y;
}
"""
mod = load_inline(name="fused", cpp_sources="torch::Tensor fwd(torch::Tensor x);",
                  cuda_sources=[kernel_part, host_part], functions=["fwd", "missing"])

class ModelNew(nn.Module):
    def forward(self, x):
        y = mod.fwd(x)
        return mod.missing(y)
)";
  SourceFile host("/tmp/sub.py", py);
  FactSet f;
  std::vector<Diagnostic> diags;
  python::extract_facts(host, ingest::Limits{}, f, diags);
  CudaOptions options;
  options.force_tree_sitter = !clang_available();
  extract_facts(host, f, diags, options);
  link(f);
  const Call* side = find_call(f, "cudaStreamCreateWithFlags");
  ASSERT_NE(side, nullptr);
  EXPECT_EQ(side->span.line, line_of(py, "cudaStreamCreateWithFlags"));
  EXPECT_TRUE(side->reachable) << "forward -> mod.fwd -> fwd reaches it";
  bool launch_seen = false;
  for (const auto& l : f.launches)
    if (l.kind == LaunchKind::CudaChevron) {
      launch_seen = true;
      EXPECT_EQ(l.span.line, line_of(py, "k<<<"));
      EXPECT_TRUE(l.reachable);
      EXPECT_GE(l.kernel_function, 0) << "the kernel lives in the other string of the same role";
    }
  EXPECT_TRUE(launch_seen);
  auto broken = broken_links(f);
  ASSERT_EQ(broken.size(), 1u);
  EXPECT_EQ(broken[0].kind, "function-missing");
  EXPECT_EQ(broken[0].span.line, line_of(py, "mod.missing"));
}

}  // namespace
}  // namespace kgate::cuda
