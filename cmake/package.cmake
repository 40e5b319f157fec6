# Installing relax (`cmake --install build/dev --prefix DIR`): the `relax` command, the static
# libraries, the headers under include/relax (keeping the paths the code includes them by:
# "compiler/pass.h") and a CMake package, so that programs and pass plugins build against an
# installed toolkit:
#   find_package(relax 0.1 REQUIRED)
#   target_link_libraries(my_tool PRIVATE relax::relax_compiler)  # a program using the C++ API
#   target_link_libraries(my_plugin PRIVATE relax::pass_plugin)   # a pass plugin (MODULE library)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# A pass plugin compiles against the headers and links none of the libraries: its calls into
# relax resolve against the `relax` binary that loads it, which exports every symbol of the
# libraries (cli/CMakeLists.txt). Linking them into the plugin would give it second copies of
# the registries.
add_library(relax_pass_plugin INTERFACE)
add_library(relax::pass_plugin ALIAS relax_pass_plugin)
target_include_directories(relax_pass_plugin INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}> $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
  $<INSTALL_INTERFACE:include/relax>)
target_compile_features(relax_pass_plugin INTERFACE cxx_std_20)
set_target_properties(relax_pass_plugin PROPERTIES EXPORT_NAME pass_plugin)

set(RELAX_INSTALLED_LIBRARIES relax_ir relax_tree_sitter_relax relax_syntax relax_analysis
    relax_check relax_runtime relax_compiler)
install(TARGETS ${RELAX_INSTALLED_LIBRARIES} relax_pass_plugin relax
  EXPORT relaxTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
foreach(layer ir syntax analysis compiler vm lsp)
  if(EXISTS ${PROJECT_SOURCE_DIR}/${layer})
    install(DIRECTORY ${layer} DESTINATION include/relax
      FILES_MATCHING PATTERN "*.h"
      PATTERN "src" EXCLUDE    # syntax/src: the generated parser's own headers
      PATTERN "test" EXCLUDE)
  endif()
endforeach()
install(FILES ${PROJECT_BINARY_DIR}/include/relax_version.h DESTINATION include/relax)

set(RELAX_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/relax)
install(EXPORT relaxTargets NAMESPACE relax:: DESTINATION ${RELAX_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/relaxConfig.cmake.in
  ${PROJECT_BINARY_DIR}/relaxConfig.cmake INSTALL_DESTINATION ${RELAX_INSTALL_CMAKEDIR})
# Plugins check the version exactly at load time; the package accepts the same major.minor.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/relaxConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/relaxConfig.cmake ${PROJECT_BINARY_DIR}/relaxConfigVersion.cmake
  DESTINATION ${RELAX_INSTALL_CMAKEDIR})
