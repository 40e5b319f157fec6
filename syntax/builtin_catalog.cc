// The catalogue of the front end's builtins: a signature as TVMScript users write it and a
// one-line doc for each name of builtin_names(). Hooks the front end uses for Python syntax
// (operators, attributes, subscripts, method calls) are documented in their surface form.
#include "syntax/builtin_catalog.h"

#include <algorithm>
#include <iterator>

namespace relax::syntax {

namespace {

// Grouped by meaning; builtin_catalog() sorts a copy by name.
constexpr BuiltinInfo kBuiltins[] = {
    // --- I: module-level declarations --------------------------------------------------------
    {"I.module_attrs", "I.module_attrs(attrs: dict[str, Any])",
     "Sets the attributes of the enclosing IRModule from a dictionary (a statement of the module "
     "class body)."},
    {"I.module_global_infos", "I.module_global_infos(global_infos: dict[str, list[GlobalInfo]])",
     "Sets the module's global infos, such as its list of virtual devices under \"vdevice\"."},
    {"I.vdevice",
     "I.vdevice(target: str | dict | None = None, vdevice_id: int = 0, memory_scope: str = "
     "\"global\") -> VDevice",
     "A virtual device (a target, a device id and a memory scope), listed in the module's global "
     "infos and referred to as \"kind:index\" by R.Tensor(vdevice=...) and R.to_vdevice."},
    {"I.dummy_global_info", "I.dummy_global_info() -> DummyGlobalInfo",
     "A placeholder global info with no content, for module global infos in tests."},
    {"TypeVar", "TypeVar(name: str, *constraints, **kwargs)",
     "Python's typing.TypeVar, accepted so that generic helper annotations parse; it adds nothing "
     "to the IR."},
    {"metadata", "metadata[\"kind\"][index: int]",
     "A reference into the file's metadata section, picking an object of the given kind by its "
     "index."},
    {"metadata.relax.expr.Constant", "metadata[\"relax.expr.Constant\"][index: int]",
     "A Relax constant whose tensor data is stored in the metadata section rather than in the "
     "text, by its index there."},

    // --- R: struct info annotations ----------------------------------------------------------
    {"R.Tensor",
     "R.Tensor(shape: Sequence[PrimExpr | str] | Expr | None = None, dtype: str | None = None, "
     "vdevice: str | VDevice | None = None, ndim: int = -1)",
     "A tensor's struct info: its shape (symbolic dims as strings or names), dtype and optionally "
     "its virtual device; an omitted shape or dtype is unknown."},
    {"R.Shape", "R.Shape(values: Sequence[PrimExpr | str] | None = None, ndim: int = -1)",
     "A shape value's struct info: its dims if known, else just its rank (-1 when unknown)."},
    {"R.Tuple", "R.Tuple(*fields: StructInfo)",
     "A tuple's struct info, one struct info per field."},
    {"R.Object", "R.Object()",
     "The struct info of any runtime object, the least specific struct info."},
    {"R.Any", "R.Any()", "Another name for R.Object(): the struct info of any value."},
    {"R.Prim", "R.Prim(dtype: str | None = None, value: PrimExpr | int | float | None = None)",
     "A scalar (PrimValue) struct info: its dtype and, optionally, its known (possibly symbolic) "
     "value."},
    {"R.Callable",
     "R.Callable(params: Sequence[StructInfo] | None = None, ret: StructInfo | None = None, "
     "purity: bool | None = None, derive_func: str | None = None)",
     "A function's struct info: parameter and return struct info and purity (pure by default "
     "when params are given), or an opaque function when params are omitted."},
    {"R.dist.DTensor",
     "R.dist.DTensor(shape, dtype: str | None = None, device_mesh=\"\", placement=\"\", ndim: int "
     "= -1)",
     "A distributed tensor's struct info (a tensor sharded over a device mesh), which this front "
     "end does not support."},

    // --- R: expression constructors ----------------------------------------------------------
    {"R.const", "R.const(value: number | nested lists of numbers, dtype: str | None = None)",
     "A constant tensor from a number or rectangular nested lists, of the given dtype or else "
     "int32, float32 or bool as the values suggest."},
    {"R.shape", "R.shape(value: Sequence[PrimExpr | int])",
     "A shape value (ShapeExpr) made of integer or symbolic dims."},
    {"R.ShapeExpr", "R.ShapeExpr(value: Sequence[PrimExpr | int])",
     "The ShapeExpr node, the same as R.shape(...)."},
    {"R.prim_value", "R.prim_value(value: PrimExpr | int | float | bool) -> PrimValue",
     "A Relax scalar (PrimValue) wrapping a TIR expression; Python ints are int64 and floats "
     "float64."},
    {"R.PrimValue", "R.PrimValue(value: PrimExpr | int | float | bool) -> PrimValue",
     "The PrimValue node, the same as R.prim_value(...)."},
    {"R.str", "R.str(value: str) -> StringImm", "A string value (StringImm) of Relax."},
    {"R.StringImm", "R.StringImm(value: str) -> StringImm",
     "The StringImm node, the same as R.str(...)."},
    {"R.dtype", "R.dtype(value: str) -> DataTypeImm",
     "A data type as a Relax value (DataTypeImm), for ops that take a dtype argument."},
    {"R.DataTypeImm", "R.DataTypeImm(value: str) -> DataTypeImm",
     "The DataTypeImm node, the same as R.dtype(...)."},
    {"R.tuple", "R.tuple(*fields: Expr) -> Tuple", "A tuple expression of the given fields."},
    {"R.TupleGetItem", "R.TupleGetItem(tuple: Expr, index: int) -> TupleGetItem",
     "The field of a tuple at a constant index."},
    {"R.ExternFunc", "R.ExternFunc(global_symbol: str, struct_info: StructInfo | None = None)",
     "A function provided by the runtime or an external library, named by its global symbol."},
    {"R.match_cast", "R.match_cast(value: Expr, struct_info: StructInfo)",
     "Binds a value after checking at run time that it matches the struct info, defining the new "
     "symbolic variables that struct info names (the whole right side of a binding)."},

    // --- R: function body statements ---------------------------------------------------------
    {"R.dataflow", "R.dataflow()",
     "Opens a dataflow block (`with R.dataflow():`) of side-effect-free bindings whose variables "
     "stay local unless exported by R.output."},
    {"R.output", "R.output(*vars: Var)",
     "Ends a dataflow block, naming the variables that remain visible after it."},
    {"R.func_attr", "R.func_attr(attrs: dict[str, Any])",
     "Sets attributes of the enclosing Relax function, such as \"global_symbol\" or "
     "\"num_input\"."},

    // --- R: calls of TIR and packed functions ------------------------------------------------
    {"R.call_tir",
     "R.call_tir(gvar: GlobalVar, args: Expr | tuple, out_sinfo: StructInfo | list[StructInfo], "
     "tir_vars: ShapeExpr | None = None)",
     "Calls a prim_func in destination-passing style: fresh output tensors of out_sinfo are "
     "allocated and passed after the arguments, then returned."},
    {"R.call_tir_inplace",
     "R.call_tir_inplace(gvar: GlobalVar, args: Expr | tuple, inplace_indices: int | list[int], "
     "out_sinfo: StructInfo | list[StructInfo], tir_vars: ShapeExpr | None = None)",
     "Calls a prim_func that writes its outputs into the arguments at inplace_indices (-1 for an "
     "output that is freshly allocated)."},
    {"R.call_tir_with_grad",
     "R.call_tir_with_grad(gvar: GlobalVar, args: Expr | tuple, out_sinfo: StructInfo | "
     "list[StructInfo], te_grad_name: str, te_grad_kwargs: dict | None = None, tir_vars: "
     "ShapeExpr | None = None)",
     "A call_tir that also names the registered TE gradient function that Relax's Gradient pass "
     "uses to differentiate it."},
    {"R.call_dps_packed",
     "R.call_dps_packed(func: str | Expr, args: Expr | tuple, out_sinfo: StructInfo | "
     "list[StructInfo])",
     "Calls a packed function in destination-passing style: outputs of out_sinfo are allocated "
     "and passed after the arguments."},
    {"R.call_packed",
     "R.call_packed(func: str, *args: Expr, sinfo_args: StructInfo | list[StructInfo], **attrs)",
     "Calls a runtime packed function by name as an impure call whose result has struct info "
     "sinfo_args."},
    {"R.call_pure_packed",
     "R.call_pure_packed(func: str | Expr, *args: Expr, sinfo_args: StructInfo | "
     "list[StructInfo])",
     "Calls a packed function that the compiler may treat as pure (usable in dataflow blocks)."},
    {"R.call_inplace_packed",
     "R.call_inplace_packed(func: str | Expr, *args: Expr, inplace_indices: int | list[int], "
     "sinfo_args: StructInfo | list[StructInfo])",
     "Calls a packed function that mutates the arguments at inplace_indices and returns them, "
     "treated as pure."},
    {"R.call_builtin_with_ctx",
     "R.call_builtin_with_ctx(func: str | Expr, args: Expr | tuple, *, sinfo_args: StructInfo | "
     "list[StructInfo] | None = None)",
     "Calls a Relax VM builtin, passing the VM context as an extra first argument."},
    {"R.__op__", "R.<op>(*args: Expr, sinfo_args=None, **attrs)",
     "Any other `R.name(...)` call: the Relax operator relax.name, with the positional arguments "
     "as its operands and keyword arguments as its attributes."},

    // --- R: debugging --------------------------------------------------------------------------
    {"R.print", "R.print(*values: Expr, format: str = \"\")",
     "Prints values at run time (an impure call), formatted by an optional format string."},
    {"R.assert_op",
     "R.assert_op(condition: Expr | bool, format_args: Expr | list[Expr] | None = None, format: "
     "str = \"\")",
     "Raises an error at run time, with the formatted message, when the boolean condition is "
     "false (an impure call)."},

    // --- R / tvm: devices ----------------------------------------------------------------------
    {"R.device", "R.device(dev_type: int, dev_id: int = 0)",
     "A physical device by its DLPack type code and index, the target of R.hint_on_device."},
    {"R.hint_on_device", "R.hint_on_device(data: Expr, dst_vdevice: R.device)",
     "Hints that a value should be placed on the given device, which device planning "
     "(RealizeVDevice) resolves into a virtual device."},
    {"R.to_vdevice", "R.to_vdevice(data: Expr, dst_vdevice: str | VDevice)",
     "Copies a value to a virtual device of the module, written \"kind:index\" such as "
     "\"cuda:0\"."},
    {"R.cpu", "R.cpu(dev_id: int = 0)", "The CPU device with the given index (device type 1)."},
    {"R.cuda", "R.cuda(dev_id: int = 0)",
     "The CUDA GPU device with the given index (device type 2)."},
    {"tvm.device", "tvm.device(dev_type: str | int, dev_id: int = 0)",
     "A device by type name (\"cpu\", \"cuda\", \"opencl\", ...) or DLPack type code, and "
     "index."},
    {"tvm.cpu", "tvm.cpu(dev_id: int = 0)", "The CPU device with the given index."},
    {"tvm.cuda", "tvm.cuda(dev_id: int = 0)", "The CUDA GPU device with the given index."},
    {"tvm.gpu", "tvm.gpu(dev_id: int = 0)",
     "The deprecated name of tvm.cuda: the CUDA GPU device with the given index."},
    {"tvm.cl", "tvm.cl(dev_id: int = 0)", "The OpenCL device with the given index."},
    {"tvm.opencl", "tvm.opencl(dev_id: int = 0)", "The OpenCL device with the given index."},
    {"tvm.vulkan", "tvm.vulkan(dev_id: int = 0)", "The Vulkan device with the given index."},
    {"tvm.metal", "tvm.metal(dev_id: int = 0)", "The Metal device with the given index."},
    {"tvm.rocm", "tvm.rocm(dev_id: int = 0)", "The ROCm (AMD GPU) device with the given index."},

    // --- R: Python operators on Relax expressions (scalars become constants) -------------------
    {"R.operator.+", "a + b", "Elementwise addition with broadcasting (relax.add)."},
    {"R.operator.-", "a - b", "Elementwise subtraction with broadcasting (relax.subtract)."},
    {"R.operator.*", "a * b", "Elementwise multiplication with broadcasting (relax.multiply)."},
    {"R.operator./", "a / b", "Elementwise division with broadcasting (relax.divide)."},
    {"R.operator.//", "a // b",
     "Elementwise division rounded toward negative infinity (relax.floor_divide)."},
    {"R.operator.%", "a % b",
     "Elementwise floor modulo, with the sign of the divisor (relax.floor_mod)."},
    {"R.operator.**", "a ** b", "Elementwise power with broadcasting (relax.power)."},
    {"R.operator.<", "a < b", "Elementwise less-than comparison, a bool tensor (relax.less)."},
    {"R.operator.<=", "a <= b",
     "Elementwise less-or-equal comparison, a bool tensor (relax.less_equal)."},
    {"R.operator.>", "a > b",
     "Elementwise greater-than comparison, a bool tensor (relax.greater)."},
    {"R.operator.>=", "a >= b",
     "Elementwise greater-or-equal comparison, a bool tensor (relax.greater_equal)."},
    {"R.operator.==", "a == b", "Elementwise equality, a bool tensor (relax.equal)."},
    {"R.operator.!=", "a != b", "Elementwise inequality, a bool tensor (relax.not_equal)."},
    {"R.operator.&", "a & b", "Elementwise bitwise AND (relax.bitwise_and)."},
    {"R.operator.|", "a | b", "Elementwise bitwise OR (relax.bitwise_or)."},
    {"R.operator.^", "a ^ b", "Elementwise bitwise XOR (relax.bitwise_xor)."},
    {"R.operator.<<", "a << b", "Elementwise left shift (relax.left_shift)."},
    {"R.operator.>>", "a >> b", "Elementwise right shift (relax.right_shift)."},
    {"R.operator.neg", "-a", "Elementwise negation (relax.negative)."},
    {"R.operator.pos", "+a", "Unary plus: the operand itself, unchanged."},
    {"R.operator.invert", "~a", "Elementwise bitwise NOT (relax.bitwise_not)."},
    {"R.operator.not", "not a", "Elementwise logical NOT of a bool tensor (relax.logical_not)."},

    // --- R: attributes, subscripts and calls on Relax expressions ------------------------------
    {"R.Expr.__getattr__.struct_info", "x.struct_info",
     "The struct info of a variable: as annotated, or as inference derives it."},
    {"R.Expr.__getattr__.ty", "x.ty",
     "The struct info of a variable, the newer spelling of x.struct_info."},
    {"R.Expr.__getitem__", "t[i: int]",
     "The field of a tuple at a constant index (TupleGetItem); negative indices count from the "
     "end."},
    {"R.Expr.__call__", "f(*args: Expr)",
     "A call of a Relax function value (a function of the module, a local function or an extern "
     "function) with positional arguments."},
    {"R.Expr.astype", "x.astype(dtype: str)",
     "The tensor converted elementwise to another dtype (relax.astype)."},

    // --- T: scalar types; called, they make constants, casts or fresh variables ----------------
    {"T.bool", "T.bool(expr=None, is_size_var: bool = False)",
     "The boolean type: an annotation, a bool constant or cast when called with a value, a fresh "
     "variable when called without one."},
    {"T.int8", "T.int8(expr=None, is_size_var: bool = False)",
     "The 8-bit signed integer type: an annotation, a constant or cast when called with a value, "
     "a fresh variable when called without one."},
    {"T.int16", "T.int16(expr=None, is_size_var: bool = False)",
     "The 16-bit signed integer type: an annotation, a constant or cast when called with a value, "
     "a fresh variable when called without one."},
    {"T.int32", "T.int32(expr=None, is_size_var: bool = False)",
     "The 32-bit signed integer type: an annotation, a constant or cast when called with a value, "
     "a fresh variable when called without one."},
    {"T.int64", "T.int64(expr=None, is_size_var: bool = False)",
     "The 64-bit signed integer type: an annotation, a constant or cast when called with a value, "
     "a fresh variable when called without one."},
    {"T.uint8", "T.uint8(expr=None, is_size_var: bool = False)",
     "The 8-bit unsigned integer type: an annotation, a constant or cast when called with a "
     "value, a fresh variable when called without one."},
    {"T.uint16", "T.uint16(expr=None, is_size_var: bool = False)",
     "The 16-bit unsigned integer type: an annotation, a constant or cast when called with a "
     "value, a fresh variable when called without one."},
    {"T.uint32", "T.uint32(expr=None, is_size_var: bool = False)",
     "The 32-bit unsigned integer type: an annotation, a constant or cast when called with a "
     "value, a fresh variable when called without one."},
    {"T.uint64", "T.uint64(expr=None, is_size_var: bool = False)",
     "The 64-bit unsigned integer type: an annotation, a constant or cast when called with a "
     "value, a fresh variable when called without one."},
    {"T.float16", "T.float16(expr=None, is_size_var: bool = False)",
     "The IEEE half-precision float type: an annotation, a constant or cast when called with a "
     "value, a fresh variable when called without one."},
    {"T.float32", "T.float32(expr=None, is_size_var: bool = False)",
     "The IEEE single-precision float type: an annotation, a constant or cast when called with a "
     "value, a fresh variable when called without one."},
    {"T.float64", "T.float64(expr=None, is_size_var: bool = False)",
     "The IEEE double-precision float type: an annotation, a constant or cast when called with a "
     "value, a fresh variable when called without one."},
    {"T.bfloat16", "T.bfloat16(expr=None, is_size_var: bool = False)",
     "The bfloat16 type (8 exponent and 7 mantissa bits): an annotation, a constant or cast when "
     "called with a value, a fresh variable when called without one."},
    {"T.float8_e4m3fn", "T.float8_e4m3fn(expr=None, is_size_var: bool = False)",
     "The 8-bit float type with 4 exponent and 3 mantissa bits, finite values and NaN only (no "
     "infinities)."},
    {"T.float8_e5m2", "T.float8_e5m2(expr=None, is_size_var: bool = False)",
     "The 8-bit float type with 5 exponent and 2 mantissa bits, with infinities and NaN."},
    {"T.i8", "T.i8(expr=None, is_size_var: bool = False)", "Short for T.int8."},
    {"T.i16", "T.i16(expr=None, is_size_var: bool = False)", "Short for T.int16."},
    {"T.i32", "T.i32(expr=None, is_size_var: bool = False)", "Short for T.int32."},
    {"T.i64", "T.i64(expr=None, is_size_var: bool = False)", "Short for T.int64."},
    {"T.u8", "T.u8(expr=None, is_size_var: bool = False)", "Short for T.uint8."},
    {"T.u16", "T.u16(expr=None, is_size_var: bool = False)", "Short for T.uint16."},
    {"T.u32", "T.u32(expr=None, is_size_var: bool = False)", "Short for T.uint32."},
    {"T.u64", "T.u64(expr=None, is_size_var: bool = False)", "Short for T.uint64."},
    {"T.f16", "T.f16(expr=None, is_size_var: bool = False)", "Short for T.float16."},
    {"T.f32", "T.f32(expr=None, is_size_var: bool = False)", "Short for T.float32."},
    {"T.f64", "T.f64(expr=None, is_size_var: bool = False)", "Short for T.float64."},
    {"T.bf16", "T.bf16(expr=None, is_size_var: bool = False)", "Short for T.bfloat16."},

    // --- T: pointers and variables -------------------------------------------------------------
    {"T.handle",
     "T.handle(dtype: str | None = None, storage_scope: str = \"global\", *, is_size_var: bool = "
     "False)",
     "The opaque pointer type: a parameter annotation for a pointer argument (usually bound to a "
     "buffer by T.match_buffer), typed when a dtype is given."},
    {"T.Ptr", "T.Ptr(dtype: str, storage_scope: str = \"global\")",
     "The legacy spelling of a typed pointer, a handle to elements of dtype in a storage scope."},
    {"T.Var", "T.Var(name: str, dtype: str) -> Var", "A TIR variable of the given name and dtype."},
    {"T.SizeVar", "T.SizeVar(name: str, dtype: str) -> SizeVar",
     "A TIR variable known to be non-negative, as shape dimensions are."},
    {"T.meta_var", "T.meta_var(value)",
     "A parse-time value: a name bound to it stands for the value itself at each use, without a "
     "let binding."},

    // --- T: buffers ------------------------------------------------------------------------------
    {"T.Buffer",
     "T.Buffer(shape: Sequence[PrimExpr] | PrimExpr, dtype: str = \"float32\", data: Var | None = "
     "None, strides: Sequence[PrimExpr] | None = None, elem_offset: PrimExpr | None = None, scope: "
     "str = \"global\", align: int = 0, offset_factor: int = 0, buffer_type: str = \"\", "
     "axis_separators: list[int] | None = None)",
     "A multi-dimensional view of memory of a dtype and shape, used as a parameter annotation "
     "(the buffer the argument points to) or declared over existing data."},
    {"T.Buffer.__getitem__", "A[i, j, ...]",
     "A load of the buffer element at the indices (BufferLoad); with slices it is a buffer "
     "region (for T.reads, T.writes) or a vector access, and on the left of `=` a store."},
    {"T.Buffer.vload",
     "A.vload(indices: Sequence[PrimExpr], dtype: str | None = None, predicate: PrimExpr | None "
     "= None)",
     "A (possibly vector) load of the buffer at the indices, masked lane by lane by an optional "
     "predicate."},
    {"T.Buffer.vstore",
     "A.vstore(indices: Sequence[PrimExpr], value: PrimExpr, predicate: PrimExpr | None = None)",
     "A (possibly vector) store of a value into the buffer at the indices, masked lane by lane "
     "by an optional predicate."},
    {"T.Buffer.__getattr__.data", "A.data", "The buffer's data pointer, a handle variable."},
    {"T.Buffer.__getattr__.shape", "A.shape", "The buffer's shape, a tuple of its dimensions."},
    {"T.Buffer.__getattr__.strides", "A.strides",
     "The buffer's strides in elements, empty for a compact row-major buffer."},
    {"T.Buffer.__getattr__.elem_offset", "A.elem_offset",
     "The offset in elements of the buffer's first element from its data pointer."},
    {"T.Buffer.__getattr__.dtype", "A.dtype", "The buffer's element dtype, as a string."},
    {"T.Buffer.__getattr__.name", "A.name", "The buffer's name, as a string."},
    {"T.Buffer.__getattr__.ndim", "A.ndim", "The buffer's number of dimensions."},
    {"T.match_buffer",
     "T.match_buffer(param: Var | BufferRegion, shape: Sequence[PrimExpr] | None = None, dtype: "
     "str = \"float32\", data: Var | None = None, strides: Sequence[PrimExpr] | None = None, "
     "elem_offset: PrimExpr | None = None, scope: str = \"global\", align: int = -1, "
     "offset_factor: int = 0, buffer_type: str = \"default\", axis_separators: list[int] | None "
     "= None) -> Buffer",
     "Binds a buffer to a handle parameter of the prim_func, or inside a block to a region of "
     "another buffer (MatchBufferRegion)."},
    {"T.alloc_buffer",
     "T.alloc_buffer(shape: Sequence[PrimExpr], dtype: str = \"float32\", data: Var | None = "
     "None, strides: Sequence[PrimExpr] | None = None, elem_offset: PrimExpr | None = None, "
     "scope: str = \"global\", align: int = -1, offset_factor: int = 0, buffer_type: str = "
     "\"default\", axis_separators: list[int] | None = None) -> Buffer",
     "Allocates a buffer owned by the enclosing block (or the function's root block) for its "
     "whole body."},
    {"T.sblock_alloc_buffer",
     "T.sblock_alloc_buffer(shape: Sequence[PrimExpr], dtype: str = \"float32\", **buffer_args) "
     "-> Buffer",
     "Allocates a buffer owned by the enclosing schedulable block, the T.sblock counterpart of "
     "T.alloc_buffer."},
    {"T.alloc_shared",
     "T.alloc_shared(shape: Sequence[PrimExpr], dtype: str = \"float32\", **buffer_args) -> "
     "Buffer",
     "T.alloc_buffer with scope \"shared\": a buffer in GPU shared memory, visible to the "
     "threads of a thread block."},
    {"T.alloc_local",
     "T.alloc_local(shape: Sequence[PrimExpr], dtype: str = \"float32\", **buffer_args) -> "
     "Buffer",
     "T.alloc_buffer with scope \"local\": a buffer private to each thread (registers)."},
    {"T.decl_buffer",
     "T.decl_buffer(shape: Sequence[PrimExpr], dtype: str = \"float32\", data: Var | None = "
     "None, strides: Sequence[PrimExpr] | None = None, elem_offset: PrimExpr | None = None, "
     "scope: str = \"global\", align: int = 0, offset_factor: int = 0, buffer_type: str = \"\", "
     "axis_separators: list[int] | None = None) -> Buffer",
     "Declares a buffer for the rest of the scope (DeclBuffer), allocating its memory unless "
     "data= names an existing pointer."},
    {"T.allocate",
     "T.allocate(extents: Sequence[PrimExpr], dtype: str, scope: str = \"global\", condition: "
     "PrimExpr | bool = True, annotations: dict | None = None) -> Var",
     "Allocates memory for the rest of the scope (an Allocate statement) and gives its data "
     "pointer, a handle variable."},
    {"T.realize",
     "T.realize(buffer_slice: BufferRegion, scope: str, condition: PrimExpr | bool = True)",
     "Realizes a buffer region in a storage scope for the rest of the scope (BufferRealize), a "
     "form of TIR before storage flattening."},

    // --- T: functions and statements -------------------------------------------------------------
    {"T.prim_func", "T.prim_func(private: bool = False, check_well_formed: bool = True)",
     "The decorator of a TIR function (PrimFunc); a private one gets no global_symbol "
     "attribute."},
    {"T.func_attr", "T.func_attr(attrs: dict[str, Any])",
     "Sets attributes of the enclosing prim_func, such as \"global_symbol\", \"tir.noalias\" or "
     "\"target\"."},
    {"T.GlobalVar.__call__", "Module.f(*args)",
     "A call of another prim_func of the module, typed by the return annotation of the callee."},
    {"T.evaluate", "T.evaluate(value: PrimExpr)",
     "A statement that evaluates an expression for its side effects (Evaluate), such as an "
     "intrinsic call."},
    {"T.ret", "T.ret(value: PrimExpr) -> PrimExpr",
     "Returns the value from the prim_func (tir.ret)."},
    {"T.attr", "T.attr(node: Any, attr_key: str, value: PrimExpr | str)",
     "Attaches an attribute (key and value) on a node to the rest of the scope (AttrStmt), such "
     "as a pragma or a thread extent."},
    {"T.LetStmt",
     "T.LetStmt(value: PrimExpr, type_annotation: Type | None = None, *, var: Var | None = None) "
     "-> Var",
     "Binds a variable to a value for the rest of the scope (a LetStmt statement)."},
    {"T.Assert", "T.Assert(condition: PrimExpr, message: str)",
     "A run-time check of a condition, failing with the message when false, for the rest of the "
     "scope (AssertStmt)."},
    {"T.launch_thread", "T.launch_thread(thread: str | Var, extent: PrimExpr) -> Var",
     "Launches a thread axis (\"blockIdx.x\", \"threadIdx.x\", \"vthread\", ...) of the given "
     "extent for the rest of the scope, giving its index variable."},
    {"T.env_thread", "T.env_thread(thread_tag: str, dtype: str = \"int32\") -> Var",
     "Declares a thread index variable (such as \"threadIdx.x\") to launch later with "
     "T.launch_thread."},
    {"T.target", "T.target(target: str | dict, host: str | dict | None = None) -> Target",
     "A compilation target, from a target string such as \"cuda\" or a configuration "
     "dictionary."},

    // --- T: loops --------------------------------------------------------------------------------
    {"T.serial",
     "T.serial(start: PrimExpr, stop: PrimExpr | None = None, step: PrimExpr | None = None, *, "
     "annotations: dict | None = None)",
     "A sequential for loop over [start, stop), or [0, start) when stop is omitted."},
    {"T.parallel",
     "T.parallel(start: PrimExpr, stop: PrimExpr | None = None, step: PrimExpr | None = None, *, "
     "annotations: dict | None = None)",
     "A for loop whose iterations run in parallel on CPU threads."},
    {"T.vectorized",
     "T.vectorized(start: PrimExpr, stop: PrimExpr | None = None, step: PrimExpr | None = None, "
     "*, annotations: dict | None = None)",
     "A for loop to be turned into vector (SIMD) operations."},
    {"T.unroll",
     "T.unroll(start: PrimExpr, stop: PrimExpr | None = None, step: PrimExpr | None = None, *, "
     "annotations: dict | None = None)",
     "A for loop to be fully unrolled."},
    {"T.thread_binding",
     "T.thread_binding(start: PrimExpr, stop: PrimExpr | None = None, thread: str | None = None, "
     "*, annotations: dict | None = None)",
     "A for loop bound to a GPU thread axis such as \"blockIdx.x\" or \"threadIdx.x\"."},
    {"T.grid", "T.grid(*extents: PrimExpr)",
     "Nested serial loops, one per extent, each from 0 (`for i, j in T.grid(m, n):`)."},

    // --- T: blocks -------------------------------------------------------------------------------
    {"T.block", "T.block(name: str = \"\", no_realize: bool = False)",
     "Opens a block (`with T.block(\"name\"):`), the unit of scheduling, with its iteration "
     "axes, buffer regions, allocations and optional init."},
    {"T.sblock", "T.sblock(name: str = \"\", no_realize: bool = False)",
     "Opens a schedulable block, newer TVM's name for T.block."},
    {"T.init", "T.init()",
     "Opens a block's initialization (`with T.init():`), run before the first iteration of its "
     "reduction axes."},
    {"T.where", "T.where(predicate: PrimExpr)",
     "The block's predicate: the block instance runs only where it holds."},
    {"T.reads", "T.reads(*buffer_slices: BufferRegion)",
     "Declares the buffer regions the block reads."},
    {"T.writes", "T.writes(*buffer_slices: BufferRegion)",
     "Declares the buffer regions the block writes."},
    {"T.block_attr", "T.block_attr(attrs: dict[str, Any])",
     "Sets annotations of the enclosing block."},
    {"T.sblock_attr", "T.sblock_attr(attrs: dict[str, Any])",
     "Sets annotations of the enclosing schedulable block, the T.sblock counterpart of "
     "T.block_attr."},
    {"T.axis.spatial",
     "T.axis.spatial(dom: PrimExpr | Range | tuple, binding: PrimExpr, dtype: str = \"int32\") "
     "-> Var",
     "Defines a spatial (data-parallel) block axis over a domain, bound to the value of outer "
     "loop variables."},
    {"T.axis.S",
     "T.axis.S(dom: PrimExpr | Range | tuple, binding: PrimExpr, dtype: str = \"int32\") -> Var",
     "Short for T.axis.spatial."},
    {"T.axis.reduce",
     "T.axis.reduce(dom: PrimExpr | Range | tuple, binding: PrimExpr, dtype: str = \"int32\") -> "
     "Var",
     "Defines a reduction (commutative reduce) block axis over a domain, bound to the value of "
     "outer loop variables."},
    {"T.axis.R",
     "T.axis.R(dom: PrimExpr | Range | tuple, binding: PrimExpr, dtype: str = \"int32\") -> Var",
     "Short for T.axis.reduce."},
    {"T.axis.scan",
     "T.axis.scan(dom: PrimExpr | Range | tuple, binding: PrimExpr, dtype: str = \"int32\") -> "
     "Var",
     "Defines an ordered (scan) block axis, whose iterations must run in order."},
    {"T.axis.opaque",
     "T.axis.opaque(dom: PrimExpr | Range | tuple, binding: PrimExpr, dtype: str = \"int32\") -> "
     "Var",
     "Defines an opaque block axis, about which the schedule assumes nothing."},
    {"T.axis.remap",
     "T.axis.remap(kinds: str, bindings: Sequence[Var], dtype: str = \"int32\") -> list[Var]",
     "Defines one block axis per loop variable, of kind S (spatial) or R (reduce) as the kinds "
     "string says, over that loop's domain (`vi, vk = T.axis.remap(\"SR\", [i, k])`)."},

    // --- T: arithmetic (folding constants) -------------------------------------------------------
    {"T.max", "T.max(a: PrimExpr, b: PrimExpr) -> PrimExpr",
     "The larger of two values (Max), folded when both are constants."},
    {"T.min", "T.min(a: PrimExpr, b: PrimExpr) -> PrimExpr",
     "The smaller of two values (Min), folded when both are constants."},
    {"T.floordiv", "T.floordiv(a: PrimExpr, b: PrimExpr) -> PrimExpr",
     "Division rounded toward negative infinity (FloorDiv)."},
    {"T.floormod", "T.floormod(a: PrimExpr, b: PrimExpr) -> PrimExpr",
     "The remainder of floordiv, with the sign of the divisor (FloorMod)."},
    {"T.truncdiv", "T.truncdiv(a: PrimExpr, b: PrimExpr) -> PrimExpr",
     "Integer division rounded toward zero, as in C (Div)."},
    {"T.truncmod", "T.truncmod(a: PrimExpr, b: PrimExpr) -> PrimExpr",
     "The remainder of truncdiv, with the sign of the dividend, as in C (Mod)."},
    {"T.ceildiv", "T.ceildiv(a: PrimExpr, b: PrimExpr) -> PrimExpr",
     "Integer division rounded up, floordiv(a + b - 1, b)."},
    {"T.abs", "T.abs(x: PrimExpr) -> PrimExpr", "The absolute value."},
    {"T.cast", "T.cast(value: PrimExpr, dtype: str) -> PrimExpr",
     "The value converted to a dtype, folded when it is a constant."},
    {"T.Cast", "T.Cast(dtype: str, value: PrimExpr) -> Cast",
     "The Cast node converting a value to a dtype, never folded."},
    {"T.Select",
     "T.Select(condition: PrimExpr, true_value: PrimExpr, false_value: PrimExpr) -> Select",
     "A choice between two values by a condition, both of which are evaluated (Select)."},
    {"T.if_then_else",
     "T.if_then_else(condition: PrimExpr, true_value: PrimExpr, false_value: PrimExpr) -> "
     "PrimExpr",
     "A choice between two values by a condition that evaluates only the chosen one, so it can "
     "guard out-of-bounds loads."},
    {"T.max_value", "T.max_value(dtype: str) -> PrimExpr", "The largest finite value of a dtype."},
    {"T.min_value", "T.min_value(dtype: str) -> PrimExpr",
     "The smallest (most negative) finite value of a dtype."},
    {"T.infinity", "T.infinity(dtype: str) -> PrimExpr",
     "Positive infinity of a floating-point dtype."},

    // --- T: expression nodes, as the printer writes them (no folding) ----------------------------
    {"T.Add", "T.Add(a: PrimExpr, b: PrimExpr) -> Add", "The Add node, a + b."},
    {"T.Sub", "T.Sub(a: PrimExpr, b: PrimExpr) -> Sub", "The Sub node, a - b."},
    {"T.Mul", "T.Mul(a: PrimExpr, b: PrimExpr) -> Mul", "The Mul node, a * b."},
    {"T.Div", "T.Div(a: PrimExpr, b: PrimExpr) -> Div",
     "The Div node: division, rounded toward zero for integers."},
    {"T.Mod", "T.Mod(a: PrimExpr, b: PrimExpr) -> Mod",
     "The Mod node: the remainder of truncated division."},
    {"T.FloorDiv", "T.FloorDiv(a: PrimExpr, b: PrimExpr) -> FloorDiv",
     "The FloorDiv node, a // b rounded toward negative infinity."},
    {"T.FloorMod", "T.FloorMod(a: PrimExpr, b: PrimExpr) -> FloorMod",
     "The FloorMod node, a % b with the sign of the divisor."},
    {"T.Min", "T.Min(a: PrimExpr, b: PrimExpr) -> Min", "The Min node, the smaller of a and b."},
    {"T.Max", "T.Max(a: PrimExpr, b: PrimExpr) -> Max", "The Max node, the larger of a and b."},
    {"T.EQ", "T.EQ(a: PrimExpr, b: PrimExpr) -> EQ", "The EQ node, a == b."},
    {"T.NE", "T.NE(a: PrimExpr, b: PrimExpr) -> NE", "The NE node, a != b."},
    {"T.LT", "T.LT(a: PrimExpr, b: PrimExpr) -> LT", "The LT node, a < b."},
    {"T.LE", "T.LE(a: PrimExpr, b: PrimExpr) -> LE", "The LE node, a <= b."},
    {"T.GT", "T.GT(a: PrimExpr, b: PrimExpr) -> GT", "The GT node, a > b."},
    {"T.GE", "T.GE(a: PrimExpr, b: PrimExpr) -> GE", "The GE node, a >= b."},
    {"T.And", "T.And(a: PrimExpr, b: PrimExpr) -> And",
     "The And node, the logical AND of two booleans."},
    {"T.Or", "T.Or(a: PrimExpr, b: PrimExpr) -> Or",
     "The Or node, the logical OR of two booleans."},
    {"T.Not", "T.Not(a: PrimExpr) -> Not", "The Not node, the logical NOT of a boolean."},
    {"T.PrimExpr.astype", "x.astype(dtype: str) -> PrimExpr",
     "The TIR expression converted to another dtype (a cast)."},

    // --- T: vectors ------------------------------------------------------------------------------
    {"T.Ramp", "T.Ramp(base: PrimExpr, stride: PrimExpr, lanes: int) -> Ramp",
     "The vector base, base + stride, ..., of the given number of lanes."},
    {"T.ramp", "T.ramp(base: PrimExpr, stride: PrimExpr, lanes: int) -> Ramp",
     "The vector base, base + stride, ..., of the given number of lanes (as T.Ramp)."},
    {"T.Broadcast", "T.Broadcast(value: PrimExpr, lanes: int) -> Broadcast",
     "A vector repeating a scalar value in every lane."},
    {"T.broadcast", "T.broadcast(value: PrimExpr, lanes: int) -> Broadcast",
     "A vector repeating a scalar value in every lane (as T.Broadcast)."},
    {"T.Shuffle", "T.Shuffle(vectors: Sequence[PrimExpr], indices: Sequence[PrimExpr]) -> Shuffle",
     "A vector made of the lanes, picked by index, of the concatenated input vectors."},
    {"T.shuffle", "T.shuffle(vectors: Sequence[PrimExpr], indices: Sequence[PrimExpr]) -> Shuffle",
     "A vector made of the lanes, picked by index, of the concatenated input vectors (as "
     "T.Shuffle)."},
    {"T.vscale", "T.vscale() -> PrimExpr",
     "The hardware multiple of the minimum vector length of scalable vector extensions (SVE, "
     "RVV), an int32."},
    {"T.get_active_lane_mask",
     "T.get_active_lane_mask(dtype: str, base: PrimExpr, limit: PrimExpr) -> PrimExpr",
     "A boolean vector whose lane i is true where base + i < limit, the mask of a predicated "
     "loop tail."},

    // --- T: let, reductions, ranges and index maps -----------------------------------------------
    {"T.Let", "T.Let(expr: PrimExpr, where: dict[Var, PrimExpr]) -> Let",
     "A let expression: expr evaluated with each variable of `where` bound to its value."},
    {"T.let", "T.let(var: Var, value: PrimExpr, body: PrimExpr) -> Let",
     "A let expression binding var to value in body; as an annotation, `x: T.let[T.int32] = v` "
     "is a let binding of x."},
    {"T.comm_reducer",
     "T.comm_reducer(combiner: Callable[..., PrimExpr], identity: Sequence[PrimExpr]) -> "
     "CommReducer",
     "A commutative reducer from a combining lambda and its identity elements, for T.reduce and "
     "thread all-reduce."},
    {"T.reduce",
     "T.reduce(combiner: CommReducer, source: Sequence[PrimExpr], init: Sequence[PrimExpr] | None "
     "= None, axis: Sequence[IterVar] | None = None, condition: PrimExpr | None = None, "
     "value_index: int = 0) -> Reduce",
     "A reduction expression: source combined by the reducer over the axes where the condition "
     "holds, taking the value_index-th result."},
    {"T.iter_var",
     "T.iter_var(var: Var, dom: Range, iter_type: str, thread_tag: str = "
     "\"\") -> IterVar",
     "An iteration variable with its domain and kind (\"DataPar\", \"CommReduce\", ...), as a "
     "T.reduce axis."},
    {"T.Range", "T.Range(begin: PrimExpr, end: PrimExpr | None = None) -> Range",
     "The range [begin, end), or [0, begin) when end is omitted."},
    {"T.index_map",
     "T.index_map(mapping: Callable[..., tuple], *, inverse_index_map: Callable | None = None, "
     "index_dtype: str = \"int32\") -> IndexMap",
     "An index map from a lambda taking indices to new indices, such as a layout transform."},

    // --- T: math intrinsics (float results have the argument's dtype) ----------------------------
    {"T.exp", "T.exp(x: PrimExpr) -> PrimExpr", "The exponential e**x."},
    {"T.exp2", "T.exp2(x: PrimExpr) -> PrimExpr", "Two to the power x."},
    {"T.exp10", "T.exp10(x: PrimExpr) -> PrimExpr", "Ten to the power x."},
    {"T.erf", "T.erf(x: PrimExpr) -> PrimExpr", "The Gauss error function of x."},
    {"T.tanh", "T.tanh(x: PrimExpr) -> PrimExpr", "The hyperbolic tangent of x."},
    {"T.sigmoid", "T.sigmoid(x: PrimExpr) -> PrimExpr", "The logistic sigmoid 1 / (1 + e**-x)."},
    {"T.sqrt", "T.sqrt(x: PrimExpr) -> PrimExpr", "The square root of x."},
    {"T.rsqrt", "T.rsqrt(x: PrimExpr) -> PrimExpr", "The reciprocal square root 1 / sqrt(x)."},
    {"T.log", "T.log(x: PrimExpr) -> PrimExpr", "The natural logarithm of x."},
    {"T.log2", "T.log2(x: PrimExpr) -> PrimExpr", "The base-2 logarithm of x."},
    {"T.log10", "T.log10(x: PrimExpr) -> PrimExpr", "The base-10 logarithm of x."},
    {"T.log1p", "T.log1p(x: PrimExpr) -> PrimExpr",
     "The natural logarithm of 1 + x, accurate for small x."},
    {"T.floor", "T.floor(x: PrimExpr) -> PrimExpr",
     "The largest integral value not greater than x."},
    {"T.ceil", "T.ceil(x: PrimExpr) -> PrimExpr", "The smallest integral value not less than x."},
    {"T.round", "T.round(x: PrimExpr) -> PrimExpr", "x rounded to the nearest integral value."},
    {"T.nearbyint", "T.nearbyint(x: PrimExpr) -> PrimExpr",
     "x rounded to the nearest integral value in the current rounding mode (halfway to even by "
     "default)."},
    {"T.trunc", "T.trunc(x: PrimExpr) -> PrimExpr", "x rounded toward zero to an integral value."},
    {"T.fabs", "T.fabs(x: PrimExpr) -> PrimExpr", "The absolute value of a float."},
    {"T.sin", "T.sin(x: PrimExpr) -> PrimExpr", "The sine of x (radians)."},
    {"T.cos", "T.cos(x: PrimExpr) -> PrimExpr", "The cosine of x (radians)."},
    {"T.tan", "T.tan(x: PrimExpr) -> PrimExpr", "The tangent of x (radians)."},
    {"T.sinh", "T.sinh(x: PrimExpr) -> PrimExpr", "The hyperbolic sine of x."},
    {"T.cosh", "T.cosh(x: PrimExpr) -> PrimExpr", "The hyperbolic cosine of x."},
    {"T.asin", "T.asin(x: PrimExpr) -> PrimExpr", "The arc sine of x."},
    {"T.acos", "T.acos(x: PrimExpr) -> PrimExpr", "The arc cosine of x."},
    {"T.atan", "T.atan(x: PrimExpr) -> PrimExpr", "The arc tangent of x."},
    {"T.asinh", "T.asinh(x: PrimExpr) -> PrimExpr", "The inverse hyperbolic sine of x."},
    {"T.acosh", "T.acosh(x: PrimExpr) -> PrimExpr", "The inverse hyperbolic cosine of x."},
    {"T.atanh", "T.atanh(x: PrimExpr) -> PrimExpr", "The inverse hyperbolic tangent of x."},
    {"T.isnan", "T.isnan(x: PrimExpr) -> PrimExpr", "Whether x is NaN, a bool."},
    {"T.isinf", "T.isinf(x: PrimExpr) -> PrimExpr", "Whether x is an infinity, a bool."},
    {"T.isfinite", "T.isfinite(x: PrimExpr) -> PrimExpr",
     "Whether x is neither an infinity nor NaN, a bool."},
    {"T.pow", "T.pow(x: PrimExpr, y: PrimExpr) -> PrimExpr", "x raised to the power y."},
    {"T.fmod", "T.fmod(x: PrimExpr, y: PrimExpr) -> PrimExpr",
     "The floating-point remainder of x / y, with the sign of x."},
    {"T.atan2", "T.atan2(x1: PrimExpr, x2: PrimExpr) -> PrimExpr",
     "The arc tangent of x1 / x2, using both signs to choose the quadrant."},
    {"T.nextafter", "T.nextafter(x1: PrimExpr, x2: PrimExpr) -> PrimExpr",
     "The next representable float after x1 in the direction of x2."},
    {"T.hypot", "T.hypot(x1: PrimExpr, x2: PrimExpr) -> PrimExpr",
     "The hypotenuse sqrt(x1**2 + x2**2)."},
    {"T.copysign", "T.copysign(x1: PrimExpr, x2: PrimExpr) -> PrimExpr",
     "The magnitude of x1 with the sign of x2."},
    {"T.ldexp", "T.ldexp(x1: PrimExpr, x2: PrimExpr) -> PrimExpr", "x1 times 2 to the power x2."},
    {"T.q_multiply_shift",
     "T.q_multiply_shift(x: PrimExpr, y: PrimExpr, q: PrimExpr, s: PrimExpr) -> PrimExpr",
     "A fixed-point multiplication of two Q-format numbers with q fractional bits followed by a "
     "rounding right shift by s, round(x * y * 2**-s)."},

    // --- T: bitwise intrinsics -------------------------------------------------------------------
    {"T.bitwise_and", "T.bitwise_and(x: PrimExpr, y: PrimExpr) -> PrimExpr", "Bitwise AND."},
    {"T.bitwise_or", "T.bitwise_or(x: PrimExpr, y: PrimExpr) -> PrimExpr", "Bitwise OR."},
    {"T.bitwise_xor", "T.bitwise_xor(x: PrimExpr, y: PrimExpr) -> PrimExpr", "Bitwise XOR."},
    {"T.bitwise_not", "T.bitwise_not(x: PrimExpr) -> PrimExpr", "Bitwise NOT."},
    {"T.shift_left", "T.shift_left(x: PrimExpr, y: PrimExpr) -> PrimExpr",
     "x shifted left by y bits."},
    {"T.shift_right", "T.shift_right(x: PrimExpr, y: PrimExpr) -> PrimExpr",
     "x shifted right by y bits (arithmetic for signed integers)."},
    {"T.popcount", "T.popcount(x: PrimExpr) -> PrimExpr", "The number of set bits of x."},
    {"T.clz", "T.clz(x: PrimExpr) -> PrimExpr", "The number of leading zero bits of x."},

    // --- T: hints and special values -------------------------------------------------------------
    {"T.likely", "T.likely(cond: PrimExpr) -> PrimExpr",
     "Marks a condition as likely true, a hint for loop partitioning and code generation."},
    {"T.assume", "T.assume(cond: PrimExpr) -> PrimExpr",
     "States a condition the compiler may assume true when simplifying (used as "
     "`T.evaluate(T.assume(...))`)."},
    {"T.tvm_thread_invariant", "T.tvm_thread_invariant(cond: PrimExpr) -> PrimExpr",
     "Marks a condition as having the same value on all threads of a block."},
    {"T.undef", "T.undef() -> PrimExpr",
     "An undefined value, for a store whose value does not matter."},
    {"T.reinterpret", "T.reinterpret(dtype: str, value: PrimExpr) -> PrimExpr",
     "The bits of a value read as another dtype of the same width, without conversion."},
    {"T.type_annotation", "T.type_annotation(dtype: str) -> PrimExpr",
     "A placeholder expression that carries only a dtype, for intrinsic arguments that name a "
     "type."},

    // --- T: calls of external functions ----------------------------------------------------------
    {"T.call_intrin", "T.call_intrin(dtype: str, op_name: str, *args) -> PrimExpr",
     "A call of any TVM op by its registered name (\"tir.exp\"), returning dtype."},
    {"T.call_extern", "T.call_extern(dtype: str, func_name: str, *args) -> PrimExpr",
     "A call of an external C function by name, returning dtype, that may have side effects."},
    {"T.call_pure_extern", "T.call_pure_extern(dtype: str, func_name: str, *args) -> PrimExpr",
     "A call of a side-effect-free external C function by name, returning dtype."},
    {"T.call_llvm_intrin",
     "T.call_llvm_intrin(dtype: str, name: str | PrimExpr, *args) -> PrimExpr",
     "A call of an LLVM intrinsic by name or id, returning dtype."},
    {"T.call_llvm_pure_intrin",
     "T.call_llvm_pure_intrin(dtype: str, name: str | PrimExpr, *args) -> PrimExpr",
     "A call of a side-effect-free LLVM intrinsic by name or id, returning dtype."},
    {"T.call_spirv_pure_glsl450",
     "T.call_spirv_pure_glsl450(dtype: str, name: str | PrimExpr, *args) -> PrimExpr",
     "A call of a SPIR-V GLSL.std.450 extended instruction, returning dtype."},
    {"T.call_packed", "T.call_packed(func_name: str, *args) -> PrimExpr",
     "A call of a packed function looked up by name in the TVM runtime, buffers passed as "
     "DLTensor handles (tvm_call_packed)."},
    {"T.call_cpacked", "T.call_cpacked(func_name: str, *args) -> PrimExpr",
     "A call of a function with the C packed-function calling convention by its symbol, without "
     "a runtime lookup."},
    {"T.call_packed_lowered", "T.call_packed_lowered(func_name: str, *args) -> PrimExpr",
     "The lowered T.call_packed, whose arguments are already packed in stack arrays."},
    {"T.call_cpacked_lowered", "T.call_cpacked_lowered(func_name: str, *args) -> PrimExpr",
     "The lowered T.call_cpacked, whose arguments are already packed in stack arrays."},
    {"T.call_trace_packed", "T.call_trace_packed(func_name: str, *args) -> PrimExpr",
     "A packed call for tracing values that returns its last argument, so it can wrap an "
     "expression."},
    {"T.tvm_check_return",
     "T.tvm_check_return(expected: int, return_unexpected: int, nested_call: PrimExpr) -> "
     "PrimExpr",
     "Checks the return code of a nested call, making the function return return_unexpected "
     "when it differs from expected."},

    // --- T: runtime structures and the stack -----------------------------------------------------
    {"T.tvm_access_ptr",
     "T.tvm_access_ptr(ptype: PrimExpr, data: Var, offset: PrimExpr, extent: PrimExpr, rw_mask: "
     "int) -> PrimExpr",
     "A pointer into a buffer's data with access information (element type, offset, extent, "
     "read 1 / write 2 mask) for intrinsics."},
    {"T.tvm_tuple", "T.tvm_tuple(*values) -> PrimExpr",
     "A tuple of values, as an argument of another intrinsic or attribute."},
    {"T.tvm_struct_get",
     "T.tvm_struct_get(handle: PrimExpr, index: int, field: int, dtype: str) -> PrimExpr",
     "Reads a field of element index of a runtime structure array (such as a DLTensor), as "
     "dtype."},
    {"T.tvm_struct_set",
     "T.tvm_struct_set(handle: PrimExpr, index: int, field: int, value: PrimExpr) -> PrimExpr",
     "Writes a field of element index of a runtime structure array (such as a DLTensor)."},
    {"T.tvm_stack_alloca", "T.tvm_stack_alloca(type: str, num: int) -> PrimExpr",
     "Allocates num elements of a runtime type (\"shape\", \"array\", \"arg_value\", "
     "\"arg_tcode\") on the stack, giving a handle."},
    {"T.tvm_stack_make_shape", "T.tvm_stack_make_shape(*dims: PrimExpr) -> PrimExpr",
     "A shape array on the stack holding the given dimensions."},
    {"T.tvm_stack_make_array",
     "T.tvm_stack_make_array(data: PrimExpr, shape: PrimExpr, strides: PrimExpr, ndim: int, "
     "arr_dtype: PrimExpr, elem_offset: PrimExpr) -> PrimExpr",
     "A DLTensor on the stack describing existing data with the given shape, strides and dtype."},
    {"T.address_of", "T.address_of(buffer_load: BufferLoad) -> PrimExpr",
     "The address of a buffer element, a handle."},
    {"T.lookup_param", "T.lookup_param(param_name: str) -> PrimExpr",
     "The handle of a parameter linked into the compiled module, looked up by name."},
    {"T.isnullptr", "T.isnullptr(handle: PrimExpr) -> PrimExpr",
     "Whether a handle is the null pointer, a bool."},
    {"T.handle_add_byte_offset",
     "T.handle_add_byte_offset(handle: PrimExpr, offset: PrimExpr) -> PrimExpr",
     "A handle advanced by a number of bytes."},
    {"T.anylist_getitem", "T.anylist_getitem(list_handle: PrimExpr, index: int) -> PrimExpr",
     "Reads an item of an AnyList, the register file of a Relax VM function compiled to TIR."},
    {"T.anylist_resetitem", "T.anylist_resetitem(list_handle: PrimExpr, index: int) -> PrimExpr",
     "Clears an item of an AnyList, releasing the object it held."},
    {"T.anylist_setitem_call_packed",
     "T.anylist_setitem_call_packed(list_handle: PrimExpr, index: int, func_name: str, *args) -> "
     "PrimExpr",
     "Calls a packed function by name and stores its result into an item of an AnyList."},
    {"T.anylist_setitem_call_cpacked",
     "T.anylist_setitem_call_cpacked(list_handle: PrimExpr, index: int, func_name: str, *args) "
     "-> PrimExpr",
     "Calls a C packed function by symbol and stores its result into an item of an AnyList."},
    {"T.start_profile_intrinsic", "T.start_profile_intrinsic(id: int) -> PrimExpr",
     "Marks the start of a profiled region with the given id (instrumentation)."},
    {"T.end_profile_intrinsic", "T.end_profile_intrinsic(id: int) -> PrimExpr",
     "Marks the end of a profiled region with the given id (instrumentation)."},

    // --- T: GPU threads, warps and tensor cores --------------------------------------------------
    {"T.tvm_thread_allreduce", "T.tvm_thread_allreduce(*args) -> PrimExpr",
     "A reduction of values across the threads of a thread block, lowered to shared memory or "
     "warp shuffles."},
    {"T.tvm_storage_sync", "T.tvm_storage_sync(storage_scope: str, *args) -> PrimExpr",
     "A memory barrier for a storage scope, \"shared\" synchronizing the threads of a block "
     "(__syncthreads)."},
    {"T.tvm_warp_shuffle",
     "T.tvm_warp_shuffle(mask: PrimExpr, value: PrimExpr, warp_id: PrimExpr, width: int, "
     "warp_size: int) -> PrimExpr",
     "The value held by another lane of the warp (CUDA __shfl_sync)."},
    {"T.tvm_warp_shuffle_up",
     "T.tvm_warp_shuffle_up(mask: PrimExpr, value: PrimExpr, offset: PrimExpr, width: int, "
     "warp_size: int) -> PrimExpr",
     "The value held by the lane offset positions lower in the warp (CUDA __shfl_up_sync)."},
    {"T.tvm_warp_shuffle_down",
     "T.tvm_warp_shuffle_down(mask: PrimExpr, value: PrimExpr, offset: PrimExpr, width: int, "
     "warp_size: int) -> PrimExpr",
     "The value held by the lane offset positions higher in the warp (CUDA __shfl_down_sync)."},
    {"T.tvm_warp_activemask", "T.tvm_warp_activemask() -> PrimExpr",
     "The mask of the active lanes of the warp (CUDA __activemask)."},
    {"T.tvm_load_matrix_sync",
     "T.tvm_load_matrix_sync(fragment: Var, m: int, n: int, k: int, index: PrimExpr, buffer_ptr: "
     "PrimExpr, stride: PrimExpr, layout: str) -> PrimExpr",
     "Loads a tensor-core matrix fragment from memory (wmma::load_matrix_sync)."},
    {"T.tvm_store_matrix_sync",
     "T.tvm_store_matrix_sync(fragment: Var, m: int, n: int, k: int, index: PrimExpr, "
     "buffer_ptr: PrimExpr, stride: PrimExpr, layout: str) -> PrimExpr",
     "Stores a tensor-core matrix fragment to memory (wmma::store_matrix_sync)."},
    {"T.tvm_mma_sync",
     "T.tvm_mma_sync(fragment_d: Var, index_d: PrimExpr, fragment_a: Var, index_a: PrimExpr, "
     "fragment_b: Var, index_b: PrimExpr, fragment_c: Var, index_c: PrimExpr) -> PrimExpr",
     "A tensor-core matrix multiply-accumulate of fragments, D = A * B + C (wmma::mma_sync)."},
    {"T.tvm_bmma_sync",
     "T.tvm_bmma_sync(fragment_d: Var, index_d: PrimExpr, fragment_a: Var, index_a: PrimExpr, "
     "fragment_b: Var, index_b: PrimExpr, fragment_c: Var, index_c: PrimExpr) -> PrimExpr",
     "A tensor-core multiply-accumulate of 1-bit fragments (wmma::bmma_sync)."},
    {"T.tvm_fill_fragment",
     "T.tvm_fill_fragment(fragment: Var, m: int, n: int, k: int, index: PrimExpr, value: "
     "PrimExpr) -> PrimExpr",
     "Fills a tensor-core matrix fragment with a value (wmma::fill_fragment)."},
    {"T.ptx_mma",
     "T.ptx_mma(dtype: str, shape: str, A_layout: str, B_layout: str, A_dtype: str, B_dtype: "
     "str, C_dtype: str, multiplicand_a: Var, a_index: PrimExpr, multiplicand_b: Var, b_index: "
     "PrimExpr, accumulator: Var, c_index: PrimExpr, saturate: bool, operator: str | None = None) "
     "-> PrimExpr",
     "A warp-level tensor-core matrix multiply-accumulate in registers (PTX mma.sync)."},
    {"T.ptx_mma_sp",
     "T.ptx_mma_sp(dtype: str, shape: str, A_layout: str, B_layout: str, A_dtype: str, B_dtype: "
     "str, C_dtype: str, multiplicand_a: Var, a_index: PrimExpr, multiplicand_b: Var, b_index: "
     "PrimExpr, accumulator: Var, c_index: PrimExpr, metadata: Var, meta_index: PrimExpr, "
     "sparse_selector: int, saturate: bool) -> PrimExpr",
     "A warp-level tensor-core multiply-accumulate with a 2:4 structured-sparse A operand (PTX "
     "mma.sp)."},
    {"T.ptx_ldmatrix",
     "T.ptx_ldmatrix(dtype: str, trans: bool, num: int, type: str, local_ptr: Var, local_offset: "
     "PrimExpr, smem_ptr: Var, smem_offset: PrimExpr) -> PrimExpr",
     "Loads matrix fragments from shared memory into the registers of a warp (PTX ldmatrix)."},
    {"T.ptx_cp_async",
     "T.ptx_cp_async(dtype: str, shared_ptr: Var, shared_offset: PrimExpr, global_ptr: Var, "
     "global_offset: PrimExpr, bytes: int) -> PrimExpr",
     "An asynchronous copy of bytes from global to shared memory (PTX cp.async)."},
    {"T.ptx_commit_group", "T.ptx_commit_group() -> PrimExpr",
     "Commits the pending asynchronous copies into a group (PTX cp.async.commit_group)."},
    {"T.ptx_wait_group", "T.ptx_wait_group(num: int) -> PrimExpr",
     "Waits until at most num groups of asynchronous copies are pending (PTX "
     "cp.async.wait_group)."},
    {"T.mma_store",
     "T.mma_store(dtype: str, m: int, n: int, dst_ptr: PrimExpr, src_ptr: Var, src_offset: "
     "PrimExpr, dst_stride: PrimExpr) -> PrimExpr",
     "Stores an m x n mma accumulator held in the registers of a warp to memory."},
    {"T.mma_fill",
     "T.mma_fill(dtype: str, local_size: int, local_ptr: Var, offset: PrimExpr) -> PrimExpr",
     "Zero-fills an mma accumulator held in the registers of a warp."},
};

const std::vector<BuiltinInfo>& sorted_catalog() {
  static const std::vector<BuiltinInfo> sorted = [] {
    std::vector<BuiltinInfo> v(std::begin(kBuiltins), std::end(kBuiltins));
    std::sort(v.begin(), v.end(),
              [](const BuiltinInfo& a, const BuiltinInfo& b) { return a.name < b.name; });
    return v;
  }();
  return sorted;
}

}  // namespace

const std::vector<BuiltinInfo>& builtin_catalog() {
  return sorted_catalog();
}

const BuiltinInfo* find_builtin(std::string_view name) {
  const std::vector<BuiltinInfo>& v = sorted_catalog();
  auto it = std::lower_bound(v.begin(), v.end(), name,
                             [](const BuiltinInfo& e, std::string_view n) { return e.name < n; });
  if (it == v.end() || it->name != name) return nullptr;
  return &*it;
}

}  // namespace relax::syntax
