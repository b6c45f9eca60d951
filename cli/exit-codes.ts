/** The kit's exit codes, one meaning each. */
export const ExitCode = {
  Passed: 0,
  ConformanceFailure: 1,
  UsageOrInput: 2,
  /** The kit itself broke: a bug to report, not a verdict on the runtime. */
  Internal: 3,
  /**
   * The runtime under test could not be driven: its adapter did not start, died, broke the
   * protocol or did not answer in time. Fix the adapter first; no verdict on the rules follows.
   */
  RuntimeNotDriven: 4,
  /** Ctrl-C: the run was stopped before its end, as a shell reports a SIGINT. */
  Interrupted: 130,
} as const;
