import Glibc
import SwiftGPUSupport

/// Watches whether the machine runs on battery without polling, for where there is no
/// D-Bus system bus (with one, `SystemLifecycle`'s monitor follows UPower and
/// power-profiles-daemon instead): power-supply changes (plugging, unplugging, battery
/// status) come through the kernel's uevent netlink socket. A thread blocks in `poll` on
/// it and re-reads the power supplies when it speaks.
///
/// Low power means running on battery: a battery discharging, or mains supplies present
/// and none online.
///
/// `Sendable`: its state is in a `LockedValue`; the descriptors are fixed after `init`.
public final class PowerMonitor: Sendable {
    private let root: String
    private let report: @Sendable (Bool) -> Void
    private let uevents: Int32
    private let wakePipe: (read: Int32, write: Int32)
    private let finished = LockedValue(false, rank: .leaf("PowerMonitor.finished"))

    init(root: String, report: @escaping @Sendable (Bool) -> Void) {
        self.root = root
        self.report = report
        uevents = Self.openUeventSocket()
        wakePipe = closeOnExecPipe() ?? (-1, -1)
        report(isLowPower)
        startThread { [self] in
            nameCurrentThread("SwiftGPU.power")
            watch()
        }
    }

    deinit {
        for fd in [uevents, wakePipe.read, wakePipe.write] where fd >= 0 { close(fd) }
    }

    /// Stops the watch; the monitor's thread ends and releases it.
    public func cancel() {
        finished.withLock { $0 = true }
        var byte: UInt8 = 1
        _ = write(wakePipe.write, &byte, 1)
    }

    /// The power state now, read from the power supplies.
    public var isLowPower: Bool { isOnBattery }

    /// A battery discharges, or mains supplies exist and none is online.
    var isOnBattery: Bool {
        let directory = root + "/sys/class/power_supply"
        let supplies = folderEntries(atPath: directory) ?? []
        func read(_ supply: String, _ name: String) -> String? {
            guard let bytes = fileContents(atPath: "\(directory)/\(supply)/\(name)") else { return nil }
            let text = String(decoding: bytes, as: UTF8.self)
            return String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        }
        let mains = supplies.filter { read($0, "type") == "Mains" }
        if supplies.contains(where: { read($0, "type") == "Battery" && read($0, "status") == "Discharging" }) { return true }
        return !mains.isEmpty && !mains.contains { read($0, "online") == "1" }
    }

    private func watch() {
        var fds = [uevents, wakePipe.read].filter { $0 >= 0 }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var buffer = [UInt8](repeating: 0, count: 8192)
        while !finished.withLock({ $0 }) {
            guard poll(&fds, nfds_t(fds.count), -1) > 0 else { continue }
            if finished.withLock({ $0 }) { return }
            for index in fds.indices where fds[index].revents != 0 {
                _ = read(fds[index].fd, &buffer, buffer.count)
            }
            report(isLowPower)
        }
    }

    private static func openUeventSocket() -> Int32 {
        let fd = socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 15) // NETLINK_KOBJECT_UEVENT
        guard fd >= 0 else { return -1 }
        // struct sockaddr_nl { sa_family_t nl_family; unsigned short nl_pad; __u32 nl_pid;
        // __u32 nl_groups; }, which Glibc's module does not export; group 1 is the kernel's.
        var address: (UInt16, UInt16, UInt32, UInt32) = (UInt16(AF_NETLINK), 0, 0, 1)
        let bound = withUnsafeBytes(of: &address) { raw in
            bind(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        if bound != 0 {
            close(fd)
            return -1
        }
        return fd
    }
}
