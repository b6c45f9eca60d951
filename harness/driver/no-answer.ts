import type { Command } from '../protocol/protocol.js';

/** How much of a command's arguments a message quotes. */
const ARGUMENTS_SHOWN = 160;

/**
 * A command as a message names it: its name and its arguments, clipped. A `hello` is named alone:
 * its configuration is the kit's, the same in every scenario, and says nothing about why it went
 * unanswered.
 */
export function commandInBrief(command: Command): string {
  const { cmd, ...rest } = command;
  if (cmd === 'hello' || Object.keys(rest).length === 0) return cmd;
  const args = JSON.stringify(rest);
  return `${cmd} ${args.length > ARGUMENTS_SHOWN ? `${args.slice(0, ARGUMENTS_SHOWN)}…` : args}`;
}

/** The words of a command the runtime left unanswered past its deadline. */
export function noAnswerMessage(command: Command, ms: number): string {
  return `the runtime did not answer ${commandInBrief(command)} within ${ms} ms`;
}

/** A command left unanswered, read back from a scenario's failure message. */
export interface NoAnswer {
  cmd: string;
  ms: number;
}

export function readNoAnswer(message: string | undefined): NoAnswer | undefined {
  const found = /the runtime did not answer (\S+)(?: .*?)? within (\d+(?:\.\d+)?) ms/.exec(message ?? '');
  return found ? { cmd: found[1]!, ms: Number(found[2]) } : undefined;
}
