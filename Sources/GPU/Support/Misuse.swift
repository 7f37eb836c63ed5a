/// Stops the program for a violation of the API contract, naming the call, as Metal's API
/// validation does. Misuse is a programming error, not a runtime condition: it is never
/// thrown. The message is printed in release builds too.
func misuse(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError("SwiftGPU API misuse: \(message)", file: file, line: line)
}
