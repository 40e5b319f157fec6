// Server answers and tool output the tests share.
import { CodeLens, DocumentSymbol } from '../src/functions';

// What `relax passes` printed (relax 0.1.0, cli/cmd_passes.cc).
export const PASSES_OUTPUT = `Passes (name, opt level, what it does):
  ToNonDataflow            O0  Turns dataflow blocks into ordinary binding blocks and DataflowVars into Vars
  CallTIRRewrite           O0  Rewrites call_tir / call_dps_packed into builtin.alloc_tensor of each output and a plain call
  DeadCodeElimination      O0  Removes unused side-effect-free bindings and private functions no public function reaches
  CanonicalizeBindings     O0  Removes var-to-var bindings and reads tuple fields of tuple literals directly
  StaticPlanBlockMemory    O0  Places tensors local to a block in reusable storage blocks (static, symbolic, bounded)
  LowerAllocTensor         O0  Gives every remaining builtin.alloc_tensor its own memory.alloc_storage
  KillAfterLastUse         O0  Inserts memory.kill_tensor / kill_storage after the last use of each tensor and storage
  LowerRuntimeBuiltin      O0  Lowers memory ops, kills, reshape and shape_of to the VM's builtins
  LambdaLift               O0  Lifts local functions to private module functions (closures capture their free variables)
  RemovePurityChecking     O0  Marks pure functions relax.force_pure and turns call_pure_packed / invoke_pure_closure into plain calls
  AnnotateTIROpPattern     O0  Sets each prim_func's op_pattern attribute (elementwise, broadcast, injective, reduction, out-elementwise-fusable or opaque) for FuseOps
  FoldConstant             O0  Evaluates call_tir and op calls whose inputs are all constants, at compile time
  VMShapeLower             O0  Makes struct-info checks and symbolic shape computations explicit calls of VM builtins over a shape heap
  LegalizeOps              O0  Replace calls of Relax ops with known shapes by call_tir of TIR PrimFuncs
  DefaultCPUSchedule       O1  Schedules unscheduled prim_funcs for the CPU: fused parallel outer loops, vectorized inner loops
  ApplySchedule            O0  Applies the schedule file of --schedule to the prim_funcs (in relax build: right after LegalizeOps)
  tir.InstrumentBoundCheckers O0  Lower the blocks of every prim_func and check each buffer index against its shape at run time (relax build/run --bounds-check)

TVM's names, accepted for ours (-p, --print-before, --print-after):
  VMBuiltinLower           = LowerRuntimeBuiltin

Default pipeline for llvm (relax build):
  1. CanonicalizeBindings (opt level >= 1)
  2. DeadCodeElimination (opt level >= 1)
  3. LegalizeOps
  4. FoldConstant (opt level >= 1)
  5. DeadCodeElimination (opt level >= 1)
  6. DefaultCPUSchedule (opt level >= 1)
  7. LambdaLift
  8. ToNonDataflow
  9. RemovePurityChecking
  10. CallTIRRewrite
  11. StaticPlanBlockMemory
  12. LowerAllocTensor
  13. KillAfterLastUse
  14. LowerRuntimeBuiltin
  15. VMShapeLower
  then VM codegen and kernel code generation for the prim_funcs
`;

export function range(l0: number, l1: number) {
  return { start: { line: l0, character: 0 }, end: { line: l1, character: 0 } };
}

// What the server answers for examples/vector_add.relax: a module with a prim_func and main.
export const OUTLINE: DocumentSymbol[] = [
  {
    name: 'Module',
    kind: 2,
    range: range(8, 29),
    selectionRange: range(8, 8),
    children: [
      { name: 'scale', kind: 12, range: range(9, 19), selectionRange: range(10, 10) },
      {
        name: 'main',
        kind: 12,
        range: range(21, 29),
        selectionRange: range(22, 22),
        children: [{ name: 'dataflow', kind: 3, range: range(25, 28), selectionRange: range(25, 25) }],
      },
    ],
  },
];

export const LENSES: CodeLens[] = [
  { range: range(22, 22), command: { title: 'Run', command: 'relax.run', arguments: [{ uri: 'file:///m.relax', function: 'main' }] } },
  { range: range(22, 22), command: { title: 'Show lowered IR', command: 'relax.showIR', arguments: [{ uri: 'file:///m.relax', function: 'main' }] } },
];

