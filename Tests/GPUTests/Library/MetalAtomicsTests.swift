import GPUTestSupport
import Testing
@testable import GPU

/// Metal's atomics compiled at run time: `atomic_uint` and `atomic_int` in device and
/// threadgroup memory, changed by the `atomic_*_explicit` functions, counted on the device.
@Suite("Run-time Metal Shading Language atomics", .validated)
struct MetalAtomicsTests {
    static let source = """
        #include <metal_stdlib>
        using namespace metal;
        kernel void histogram(device const uint* values [[buffer(0)]],
                              device atomic_uint* bins [[buffer(1)]],
                              device atomic_int* totals [[buffer(2)]],
                              uint i [[thread_position_in_grid]],
                              uint local [[thread_index_in_threadgroup]],
                              uint group [[threadgroup_position_in_grid]]) {
            threadgroup atomic_uint odd;
            if (local == 0) { atomic_store_explicit(&odd, 0, memory_order_relaxed); }
            threadgroup_barrier(mem_flags::mem_threadgroup);
            atomic_fetch_add_explicit(&bins[values[i] % 8], 1, memory_order_relaxed);
            if (values[i] % 2 == 1) { atomic_fetch_add_explicit(&odd, 1u, memory_order_relaxed); }
            atomic_fetch_sub_explicit(totals, int(values[i]), memory_order_relaxed);
            atomic_fetch_max_explicit(&totals[1], int(values[i]), memory_order_relaxed);
            atomic_fetch_min_explicit(&totals[2], int(values[i]), memory_order_relaxed);
            atomic_fetch_or_explicit(&bins[8], 1u << (values[i] % 32), memory_order_relaxed);
            threadgroup_barrier(mem_flags::mem_threadgroup);
            if (local == 0) {
                atomic_exchange_explicit(&bins[9 + group], atomic_load_explicit(&odd, memory_order_relaxed), memory_order_relaxed);
            }
        }
        """

    @Test("a histogram, a threadgroup count and signed sums, minima and maxima by atomics match the CPU's")
    func histogram() throws {
        let gpu = try TestGPU()
        let library = try gpu.device.makeLibrary(source: Self.source, options: nil)
        let pipeline = try gpu.device.makeComputePipelineState(function: try library.makeFunction(name: "histogram"))
        let values = (0..<256).map { UInt32(($0 * 37 + 11) % 101) }
        let bins = try gpu.buffer([UInt32](repeating: 0, count: 13))
        let totals = try gpu.buffer([Int32(0), Int32.min, Int32.max])
        try gpu.dispatch(pipeline, buffers: [try gpu.buffer(values), bins, totals], groups: 4, width: 64)
        let counted = Array(UnsafeBufferPointer(start: bins.contents().bindMemory(to: UInt32.self, capacity: 13), count: 13))
        let signed = Array(UnsafeBufferPointer(start: totals.contents().bindMemory(to: Int32.self, capacity: 3), count: 3))
        var expected = [UInt32](repeating: 0, count: 13)
        for value in values {
            expected[Int(value % 8)] += 1
            expected[8] |= 1 << (value % 32)
        }
        for group in 0..<4 { expected[9 + group] = UInt32(values[(group * 64)..<(group * 64 + 64)].filter { $0 % 2 == 1 }.count) }
        #expect(counted == expected)
        #expect(signed == [-Int32(values.reduce(0, +)), Int32(values.max()!), Int32(values.min()!)])
    }

    static let compareExchangeSource = """
        #include <metal_stdlib>
        using namespace metal;
        kernel void claim(device atomic_uint* counter [[buffer(0)]],
                          device atomic_int* slots [[buffer(1)]],
                          device uint* tickets [[buffer(2)]],
                          device int* failures [[buffer(3)]],
                          uint i [[thread_position_in_grid]]) {
            // An increment by compare-exchange: each thread takes the next ticket.
            uint expected = atomic_load_explicit(counter, memory_order_relaxed);
            while (!atomic_compare_exchange_weak_explicit(counter, &expected, expected + 1,
                                                          memory_order_relaxed, memory_order_relaxed)) {
            }
            tickets[i] = expected;
            // One winner per slot: only the first exchange from -1 succeeds; the others see
            // the winner's index in their expected value.
            int empty = -1;
            bool won = atomic_compare_exchange_weak_explicit(&slots[i % 4], &empty, int(i),
                                                             memory_order_relaxed, memory_order_relaxed);
            failures[i] = won ? -1 : empty;
        }
        """

    @Test("compare-exchange loops hand out every ticket once, and a failed exchange returns the value it found")
    func compareExchange() throws {
        let gpu = try TestGPU()
        let library = try gpu.device.makeLibrary(source: Self.compareExchangeSource, options: nil)
        let pipeline = try gpu.device.makeComputePipelineState(function: try library.makeFunction(name: "claim"))
        let count = 128
        let counter = try gpu.buffer([UInt32(5)])
        let slots = try gpu.buffer([Int32](repeating: -1, count: 4))
        let tickets = try gpu.buffer([UInt32](repeating: 0, count: count))
        let failures = try gpu.buffer([Int32](repeating: 0, count: count))
        try gpu.dispatch(pipeline, buffers: [counter, slots, tickets, failures], groups: 2, width: 64)
        let taken = Array(UnsafeBufferPointer(start: tickets.contents().bindMemory(to: UInt32.self, capacity: count), count: count))
        let winners = Array(UnsafeBufferPointer(start: slots.contents().bindMemory(to: Int32.self, capacity: 4), count: 4))
        let seen = Array(UnsafeBufferPointer(start: failures.contents().bindMemory(to: Int32.self, capacity: count), count: count))
        #expect(counter.contents().load(as: UInt32.self) == UInt32(5 + count))
        #expect(taken.sorted() == (0..<count).map { UInt32(5 + $0) })
        for slot in 0..<4 {
            let threads = stride(from: slot, to: count, by: 4)
            #expect(winners[slot] % 4 == Int32(slot), "slot \(slot) holds \(winners[slot])")
            #expect(threads.filter { seen[$0] == -1 } == [Int(winners[slot])], "slot \(slot): one winner")
            #expect(threads.allSatisfy { seen[$0] == -1 || seen[$0] == winners[slot] }, "slot \(slot): losers see the winner")
        }
    }

    @Test("atomics are refused outside device and threadgroup memory, and a compare-exchange needs '&expected' of the atomic's type")
    func misuse() throws {
        let gpu = try TestGPU()
        func message(_ body: String) -> String {
            gpu.metalMessages("#include <metal_stdlib>\nusing namespace metal;\n"
                + "kernel void k(device atomic_int* a [[buffer(0)]], device int* b [[buffer(1)]]) {\n\(body)\n}\n")
        }
        #expect(message("atomic_fetch_add_explicit(b, 1, memory_order_relaxed);")
            == "program_source:4:27: error: 'atomic_fetch_add_explicit' takes a pointer to an atomic_int or atomic_uint, not 'int'")
        #expect(message("uint expected = 0; atomic_compare_exchange_weak_explicit(a, &expected, 1, memory_order_relaxed, memory_order_relaxed);")
            == "program_source:4:61: error: the expected value of a compare-exchange of 'atomic_int' has type 'int', not 'uint'")
        #expect(message("atomic_compare_exchange_weak_explicit(a, b, 1, memory_order_relaxed, memory_order_relaxed);")
            == "program_source:4:42: error: unsupported: an expected value of a compare-exchange other than '&variable'")
        #expect(message("int e = 0; atomic_compare_exchange_weak_explicit(a, &e, 1, memory_order_relaxed, memory_order_seq_cst);")
            == "program_source:4:82: error: unsupported: the memory order 'memory_order_seq_cst'")
        #expect(message("a[0] = 1;") == "program_source:4:8: error: cannot convert 'int' to 'atomic_int'")
        #expect(message("atomic_fetch_add_explicit(a, 1, memory_order_seq_cst);")
            == "program_source:4:33: error: unsupported: the memory order 'memory_order_seq_cst'")
    }
}
