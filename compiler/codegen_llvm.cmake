# LLVM code generation (compiler/codegen/llvm/): TIR to LLVM IR with the kernel ABI, ORC JIT and
# shared-library output. Links the shared libLLVM (ARCHITECTURE.md, build notes).
find_package(LLVM 19.1 REQUIRED CONFIG PATHS /usr/lib/llvm-19/lib/cmake/llvm NO_DEFAULT_PATH)
include_directories(SYSTEM ${LLVM_INCLUDE_DIRS})
separate_arguments(RELAX_LLVM_DEFINITIONS NATIVE_COMMAND ${LLVM_DEFINITIONS})
add_definitions(${RELAX_LLVM_DEFINITIONS})
list(APPEND RELAX_COMPILER_SOURCES
  codegen/llvm/codegen_llvm.cc
  codegen/llvm/llvm_target.cc
  codegen/llvm/llvm_jit.cc
  codegen/llvm/shared_library.cc
)
# Installed (cmake/package.cmake), relax_compiler links the same libLLVM file: programs that use
# the package need no find_package(LLVM), whose config wants the C language and many packages.
get_target_property(RELAX_LLVM_LIBRARY LLVM LOCATION)
list(APPEND RELAX_COMPILER_DEPS $<BUILD_INTERFACE:LLVM> $<INSTALL_INTERFACE:${RELAX_LLVM_LIBRARY}>)
