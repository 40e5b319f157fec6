# The seed tutorial's §6.1 schedule for the matmul of examples/matmul_relu.relax, as TVM's
# Python writes it. LegalizeOps names the kernel after the op: prim_func `matmul`, block
# `matmul` (`relax opt examples/matmul_relu.relax -p LegalizeOps` prints the names).
sch = tvm.tir.Schedule(mod)
matmul_block = sch.get_block("matmul", func_name="matmul")
i, j, k = sch.get_loops(matmul_block)
# 1. Tiling: split j into jo and ji, an inner loop of 4 iterations.
jo, ji = sch.split(j, factors=[None, 4])
# 2. Reordering: the reduction k between the two halves of j.
sch.reorder(i, jo, k, ji)
# 3. Parallel outer rows, and the inner 4 columns as one vector.
sch.parallel(i)
sch.vectorize(ji)
tuned_mod = sch.mod
