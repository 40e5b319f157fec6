# VM codegen (compiler/codegen/vm/): Relax functions into VM bytecode.
list(APPEND RELAX_COMPILER_SOURCES codegen/vm/vm_codegen.cc)
