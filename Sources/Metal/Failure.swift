import Logging

/// Where the Metal names report why a factory returned `nil`: SwiftGPU's logger.
let logger = Logger(label: "SwiftGPU")

/// `make()`'s result, or `nil` (as Metal's factories return) with the error's reason logged
/// under the name of `call`.
func madeOrNil<T, E: Error>(_ call: String, _ make: () throws(E) -> T) -> T? {
    do {
        return try make()
    } catch {
        logger.error("\(call) returned nil: \(error)")
        return nil
    }
}
