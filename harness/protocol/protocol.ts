/**
 * The commands the kit sends to a runtime and the observations it reads back, typed from the
 * schema files in `schema/` (see `protocol.generated.ts`). Everything here is plain JSON, so the
 * same exchange can travel to a runtime in another process or language.
 */
import type {
  Commands,
  ContextContributorRegisterRequest,
  InboxResult,
  FailuresResult,
  FaultCrashRequest,
  HelloRequest,
  HelloResult,
  PromptAdmitRequest,
  PromptAdmitResult,
  PtyEnvironmentResult,
  ReplyError,
  RuntimeConfig,
} from './protocol.generated.js';

export type * from './protocol.generated.js';

export const PROTOCOL: HelloRequest['protocol'] = 'session-runtime-adapter/1';

export type CommandName = keyof Commands;
export type CommandRequest<C extends CommandName = CommandName> = Commands[C]['request'];
export type CommandResult<C extends CommandName> = Commands[C]['result'];
/** Any command the kit sends. */
export type Command = CommandRequest;

/** The closed vocabulary of errors a runtime reports; runtimes translate their own errors into it. */
export type ErrorCode = ReplyError['code'];

export type Reply<Result = unknown> =
  | { ok: true; result: Result; emulated?: string[] }
  | { ok: false; error: ReplyError };

/** What a runtime says of itself in answer to `hello`. */
export type RuntimeDescription = HelloResult;
/** The runtime's own shell tool: how the kit expresses its tools when it lacks capability `kit-tools`. */
export type ShellDeclaration = NonNullable<HelloResult['shell']>;
/** A patch tool whose input field `patchField` holds the whole patch text (rules TLS-03, TLS-04). */
export type PatchDeclaration = NonNullable<HelloResult['patch']>;
/** The patch tool of a runtime that declares none. */
export const DEFAULT_PATCH_TOOL: PatchDeclaration = { tool: 'apply_patch', patchField: 'patch' };
/** A read tool whose input field `pathField` names the file to read (an image or a PDF, for PRU-01 and PRU-04). */
export type ReadDeclaration = NonNullable<HelloResult['read']>;
/** The read tool of a runtime that declares none. */
export const DEFAULT_READ_TOOL: ReadDeclaration = { tool: 'read', pathField: 'path' };
/** A skill tool whose input field `nameField` names the skill to load (rule AGT-07). */
export type SkillToolDeclaration = NonNullable<HelloResult['skill']>;
/** The skill tool of a runtime that declares none. */
export const DEFAULT_SKILL_TOOL: SkillToolDeclaration = { tool: 'skill', nameField: 'name' };
export type ProviderDialectName = RuntimeConfig['provider']['dialect'];
export type PromptContent = PromptAdmitRequest['prompt'];
export type PromptReceipt = PromptAdmitResult;
export type Delivery = InboxResult['rows'][number]['delivery'];
/** Why a drain stopped with work left. */
export type Failure = FailuresResult['failures'][number];
export type PtyEnvironmentView = PtyEnvironmentResult;
export type KitSourceDeclaration = ContextContributorRegisterRequest['sources'][number];
/** The durable writes right after which a runtime can be made to crash (`fault.crash`). */
export type CrashPoint = FaultCrashRequest['after'];
