import Foundation
import SwiftGPUSupport

/// The scheduling `ThreadScheduling.apply(qos)` gives a new thread of this process (what
/// the thread scheduling tests check against the kernel's permissions).
func schedulingOfNewThread(_ qos: DispatchQoS.QoSClass) async -> ThreadScheduling.Applied {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: ThreadScheduling.apply(qos)) }.start()
    }
}
