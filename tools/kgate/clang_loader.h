// The kgate CLI's Clang engine, loaded on first use from kgate_clang_plugin (see clang_plugin.cpp).
#pragma once

namespace kgate::cli {

// Registers a stand-in engine with the C++ dispatcher: the first C++/CUDA source that needs Clang
// loads the plugin ($KGATE_CLANG_PLUGIN, else kgate_clang_plugin.so next to this executable, else the
// one this build produced) and every call goes to its engine. A plugin that cannot be loaded makes
// each module fall back to tree-sitter-cuda with the reason (the usual `engine-fallback` warning).
void register_lazy_clang_engine();

}  // namespace kgate::cli
