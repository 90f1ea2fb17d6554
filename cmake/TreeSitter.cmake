# Builds tree-sitter core and the python, cpp and cuda grammars from the pinned PyPI sources that
# cmake/Pins.cmake unpacked under KGATE_DEPS_DIR (see third_party/pins.txt).
set(_ts_core "${KGATE_DEPS_DIR}/tree-sitter/tree_sitter/core/lib")
if(NOT EXISTS "${_ts_core}/src/lib.c")
  message(FATAL_ERROR "tree-sitter sources not found in ${KGATE_DEPS_DIR}: cmake/Pins.cmake should have unpacked them")
endif()

add_library(ts_core STATIC "${_ts_core}/src/lib.c")
target_include_directories(ts_core SYSTEM PUBLIC "${_ts_core}/include" PRIVATE "${_ts_core}/src")
set_target_properties(ts_core PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
target_compile_options(ts_core PRIVATE -w -O2)
kgate_lto_objects(ts_core)

function(kgate_grammar target dir)
  set(_src "${KGATE_DEPS_DIR}/${dir}/src")
  set(_files "${_src}/parser.c")
  if(EXISTS "${_src}/scanner.c")
    list(APPEND _files "${_src}/scanner.c")
  endif()
  add_library(${target} STATIC ${_files})
  target_include_directories(${target} PRIVATE "${_src}")
  if(NOT EXISTS "${_src}/tree_sitter/parser.h")
    # ABI-14 grammars whose sdist omits the language header (see third_party/pins.txt).
    target_include_directories(${target} PRIVATE "${KGATE_DEPS_DIR}/tree-sitter-abi14/include")
  endif()
  set_target_properties(${target} PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
  # The generated lexers are hot (they run per byte); -O2 builds each grammar in seconds.
  target_compile_options(${target} PRIVATE -w -O2)
  target_link_libraries(${target} PUBLIC ts_core)
endfunction()

kgate_grammar(ts_python tree-sitter-python)
kgate_grammar(ts_cpp tree-sitter-cpp)
kgate_grammar(ts_cuda tree-sitter-cuda)
