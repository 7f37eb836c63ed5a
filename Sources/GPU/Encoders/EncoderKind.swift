/// The kinds of encoder a command buffer opens one at a time, as its record keeps the open
/// one and as misuse messages name it ("a render command encoder is still open").
enum EncoderKind: String {
    case render = "render"
    case parallelRender = "parallel render"
    case compute = "compute"
    case blit = "blit"
}
