# What an install holds, for `cmake --install` and for `pip install .` (scikit-build-core, which sets
# SKBUILD and its wheel folders): the executables side by side (kgate finds kgate-runtime, kgate-worker
# and kgate_clang_plugin.so beside itself: tools/kgate/companion_path.h; the static gate finds kgate-nvrtc
# there too: analyzers/core/data_dir.h), the Python module, and the
# rules, tasks and Clang shim headers in <prefix>/share/kgate, where analyzers/core/data_dir.h looks.
include(GNUInstallDirs)
if(SKBUILD)
  set(_kgate_bin "${SKBUILD_SCRIPTS_DIR}")
  set(_kgate_data "${SKBUILD_DATA_DIR}/share/kgate")
  set(_kgate_python "${SKBUILD_PLATLIB_DIR}")
else()
  set(_kgate_bin "${CMAKE_INSTALL_BINDIR}")
  set(_kgate_data "${CMAKE_INSTALL_DATADIR}/kgate")
  set(KGATE_INSTALL_PYTHONDIR "${CMAKE_INSTALL_LIBDIR}/kgate/python" CACHE PATH "Where `cmake --install` puts the kgate Python module")
  set(_kgate_python "${KGATE_INSTALL_PYTHONDIR}")
endif()

# Installed binaries keep the rpaths of the libraries they link outside the system's folders
# (Clang/LLVM 19, LibTorch in the building Python's site-packages).
foreach(_target kgate kgate_clang_plugin kgate-runtime kgate-worker kgate_python)
  if(TARGET ${_target})
    set_target_properties(${_target} PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
  endif()
endforeach()

install(TARGETS kgate RUNTIME DESTINATION "${_kgate_bin}")
if(TARGET kgate-nvrtc)  # the PTX witness's compiler process (analyzers/ptx/nvrtc_child.h)
  install(TARGETS kgate-nvrtc RUNTIME DESTINATION "${_kgate_bin}")
endif()
if(TARGET kgate_clang_plugin)
  install(TARGETS kgate_clang_plugin LIBRARY DESTINATION "${_kgate_bin}")
endif()
if(TARGET kgate-runtime)
  install(TARGETS kgate-runtime kgate-worker RUNTIME DESTINATION "${_kgate_bin}")
endif()
if(TARGET kgate_python)
  install(TARGETS kgate_python LIBRARY DESTINATION "${_kgate_python}/kgate")
  install(FILES ${KGATE_PYTHON_SOURCES} DESTINATION "${_kgate_python}/kgate")
endif()
if(TARGET kgate_clang)  # the Clang engine parses embedded C++ against these headers (default_shim_dir)
  install(DIRECTORY "${CMAKE_SOURCE_DIR}/analyzers/cuda/shims/" DESTINATION "${_kgate_data}/shims")
endif()
install(DIRECTORY "${CMAKE_SOURCE_DIR}/rules/" DESTINATION "${_kgate_data}/rules")
install(DIRECTORY "${CMAKE_SOURCE_DIR}/tasks/" DESTINATION "${_kgate_data}/tasks")
