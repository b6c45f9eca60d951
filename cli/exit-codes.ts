/** The kit's exit codes, one meaning each. */
export const ExitCode = {
  Passed: 0,
  ConformanceFailure: 1,
  UsageOrInput: 2,
  /** The kit itself broke: a bug to report, not a verdict on the runtime. */
  Internal: 3,
} as const;
