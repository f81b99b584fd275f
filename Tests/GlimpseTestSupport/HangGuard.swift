public import Testing

extension Trait where Self == TimeLimitTrait {
    /// The time limit of suites whose tests could hang on a lost wake-up or a connection that never
    /// comes (the store's suites): it ends such a test instead of the whole run.
    ///
    /// It is a guard against hangs, not a bar on speed. Swift Testing starts every test of the run at
    /// once and a test's clock runs while it waits for a thread, so on a 2-core machine that is also busy
    /// with other work (`stress-ng --cpu 2` beside `scripts/test.sh` takes the unloaded 18 min run to
    /// 28 min) a test that needs seconds alone can take over 5 minutes. Twenty minutes is far above that
    /// and still well inside CI's 90.
    public static var hangGuard: Self { .timeLimit(.minutes(20)) }
}
