/// How `dispatchThreads` covers a grid exactly, as Metal's non-uniform threadgroups do,
/// with a pipeline whose local size is chosen at dispatch.
///
/// Vulkan has no partial threadgroups, but a dispatch may start at a base group
/// (`vkCmdDispatchBase`): the global id of a thread is (base + group) × local size + local
/// id. Along each axis the grid of `threads` is split into the whole groups of the asked
/// size, then the remainder `r` run at the local size `l = gcd(start, r)`, where `start`
/// is the first thread past the whole groups. `l` divides `start`, so the base
/// `start / l` lands the remainder's global ids exactly after the whole groups; when there
/// are no whole groups `l` is `r` itself, one partial group as in Metal. Along an axis
/// whose local size is fixed in the shader the last group runs whole (the shader must
/// skip threads past the end there). Up to 2 × 2 × 2 regions; no thread outside the grid.
struct DispatchRegions {
    /// One dispatch: its local size, base group and group counts.
    struct Region: Equatable {
        var localSize: Size
        var base: (x: UInt32, y: UInt32, z: UInt32)
        var counts: (x: UInt32, y: UInt32, z: UInt32)

        static func == (lhs: Region, rhs: Region) -> Bool {
            lhs.localSize == rhs.localSize && lhs.base == rhs.base && lhs.counts == rhs.counts
        }
    }

    /// One axis's part: local size, base group, group count.
    private struct Segment {
        var size: Int
        var base: Int
        var count: Int
    }

    /// The regions, in order; empty when the grid is empty.
    let regions: [Region]

    /// Splits `threads` for groups of `groupSize`; `specialized` tells, per axis (x, y, z),
    /// whether the local size may change there. Sizes are checked by the caller: threads
    /// non-negative and below 2³² per axis, group sizes positive.
    init(threads: Size, groupSize: Size, specialized: [Bool]) {
        let grid = [threads.width, threads.height, threads.depth]
        let group = [groupSize.width, groupSize.height, groupSize.depth]
        var axes: [[Segment]] = []
        for axis in 0..<3 {
            axes.append(Self.segments(grid[axis], group: group[axis], specialized: specialized[axis]))
        }
        var regions: [Region] = []
        for z in axes[2] {
            for y in axes[1] {
                for x in axes[0] {
                    regions.append(Region(
                        localSize: Size(width: x.size, height: y.size, depth: z.size),
                        base: (UInt32(x.base), UInt32(y.base), UInt32(z.base)),
                        counts: (UInt32(x.count), UInt32(y.count), UInt32(z.count))))
                }
            }
        }
        self.regions = regions
    }

    /// The parts of one axis of `count` threads.
    private static func segments(_ count: Int, group: Int, specialized: Bool) -> [Segment] {
        guard count > 0 else { return [] }
        guard specialized else {
            return [Segment(size: group, base: 0, count: count / group + (count % group == 0 ? 0 : 1))]
        }
        let whole = count / group, remainder = count % group
        var segments: [Segment] = []
        if whole > 0 { segments.append(Segment(size: group, base: 0, count: whole)) }
        if remainder > 0 {
            let start = whole * group
            let size = greatestCommonDivisor(start, remainder)
            segments.append(Segment(size: size, base: start / size, count: remainder / size))
        }
        return segments
    }

    /// gcd(a, b), with gcd(0, b) = b.
    private static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}
