import Testing

/// What an exit test's process wrote to its standard error.
package func stderr(_ result: ExitTest.Result?) -> String {
    String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
}
