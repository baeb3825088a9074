import { Command, Option } from 'commander';

/*
 * One typed table of options per command (issue 32; Vitest's cli-config.ts is the model): each
 * option is declared once — its flag, help, default, how its value is read, and the library
 * request field it fills — and the flags a command receives are typed from its table
 * (`FlagsOf`), so there is no hand-written flags interface to keep in step with commander.
 */

/** Choices that are a registry's names, resolved by main when the command runs (the registries load only for the commands that need them). */
export type NamedChoices = 'sandboxes' | 'report-formats';

/** One option of a command. `V` is the value the command receives; `R` the library request field it fills, if any. */
export interface OptionSpec<V, R extends string = never> {
  /** commander's flags: `--json`, `--concurrency <n>`, `--queue [url]`, `--compare <agents...>`, `--no-color`. */
  readonly flags: string;
  readonly help: string;
  readonly default?: V;
  readonly parse?: (value: string, previous: V) => V;
  readonly choices?: readonly string[] | NamedChoices;
  /** Must be given (commander's required option). */
  readonly required?: boolean;
  /** The library request field this option fills as it is (see `requestOf`). */
  readonly request?: R;
  /** Type only: the value. */
  readonly __value?: V;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any option of any value
export type OptionTable = Readonly<Record<string, OptionSpec<any, string>>>;

type ValueOf<S> = S extends OptionSpec<infer V, string> ? V : never;
type OptionalKeys<T extends OptionTable> = { [K in keyof T]: undefined extends ValueOf<T[K]> ? K : never }[keyof T];

/** The flags a command receives, typed from its table: an option that can be absent is optional. */
export type FlagsOf<T extends OptionTable> = { readonly [K in Exclude<keyof T, OptionalKeys<T>>]: ValueOf<T[K]> } & { readonly [K in OptionalKeys<T>]?: ValueOf<T[K]> };

type RequestFieldOf<S> = S extends { readonly request?: infer R } ? Exclude<R, undefined> : never;

/** Options whose value is always there (a default, or required) and not a list: their request fields are always filled. */
type AlwaysKeys<T extends OptionTable> = { [K in keyof T]: undefined extends ValueOf<T[K]> ? never : ValueOf<T[K]> extends readonly unknown[] ? never : K }[keyof T];

/** The request fields a table's options fill: present when the option always has a value, else only when it was given. */
export type RequestOf<T extends OptionTable> = {
  readonly [K in AlwaysKeys<T> as RequestFieldOf<T[K]>]: ValueOf<T[K]>;
} & {
  readonly [K in Exclude<keyof T, AlwaysKeys<T>> as RequestFieldOf<T[K]>]?: Exclude<ValueOf<T[K]>, undefined>;
};

interface Extra<R extends string> {
  readonly request?: R;
}

/** A switch, false unless given (`--json`). */
export function bool<R extends string = never>(flags: string, help: string, extra: Extra<R> = {}): OptionSpec<boolean, R> {
  return { flags, help, default: false, ...extra };
}

/** A switch with no default: true, false (its `--no-` form), or absent when not given. */
export function maybeBool<R extends string = never>(flags: string, help: string, extra: Extra<R> = {}): OptionSpec<boolean | undefined, R> {
  return { flags, help, ...extra };
}

/** The `--no-<name>` form of another option of the same table (`maybeBool`): its value lands in that option's, never under its own key. */
export function negationOf(flags: string, help: string): OptionSpec<undefined> {
  return { flags, help };
}

/** `--no-<name>` alone: true unless given. */
export function negated(flags: string, help: string): OptionSpec<boolean> {
  return { flags, help };
}

/** A text value, absent when not given. */
export function text<R extends string = never>(flags: string, help: string, extra: Extra<R> & { readonly required?: false } = {}): OptionSpec<string | undefined, R> {
  return { flags, help, ...extra };
}

/** A text value that must be given. */
export function requiredText<R extends string = never>(flags: string, help: string, extra: Extra<R> = {}): OptionSpec<string, R> {
  return { flags, help, required: true, ...extra };
}

/** A text value with a default. */
export function textOr<R extends string = never>(flags: string, help: string, defaultValue: string, extra: Extra<R> = {}): OptionSpec<string, R> {
  return { flags, help, default: defaultValue, ...extra };
}

/** A value read by `parse`, with a default. */
export function parsedOr<V, R extends string = never>(flags: string, help: string, parse: (value: string) => V, defaultValue: V, extra: Extra<R> = {}): OptionSpec<V, R> {
  return { flags, help, parse, default: defaultValue, ...extra };
}

/** A value read by `parse`, absent when not given. */
export function parsed<V, R extends string = never>(flags: string, help: string, parse: (value: string) => V, extra: Extra<R> = {}): OptionSpec<V | undefined, R> {
  return { flags, help, parse, ...extra };
}

/** One of `choices` (or a registry's names), absent when not given. */
export function choice<C extends string, R extends string = never>(flags: string, help: string, choices: readonly C[] | NamedChoices, extra: Extra<R> = {}): OptionSpec<C | undefined, R> {
  return { flags, help, choices, ...extra };
}

/** One of `choices`, with a default. */
export function choiceOr<C extends string, R extends string = never>(flags: string, help: string, choices: readonly C[], defaultValue: C, extra: Extra<R> = {}): OptionSpec<C, R> {
  return { flags, help, choices, default: defaultValue, ...extra };
}

/** A repeatable option: every value given, in order (none: empty). */
export function list<R extends string = never>(flags: string, help: string, extra: Extra<R> = {}): OptionSpec<readonly string[], R> {
  return { flags, help, parse: (value, previous) => [...previous, value], default: [], ...extra };
}

/** A variadic option (`--compare <agents...>`): the words after it, absent when not given. */
export function words(flags: string, help: string): OptionSpec<readonly string[] | undefined> {
  return { flags, help };
}

/** `--queue [url]`: a value, true when given bare, absent when not given. */
export function optionalValue<R extends string = never>(flags: string, help: string, extra: Extra<R> = {}): OptionSpec<string | true | undefined, R> {
  return { flags, help, ...extra };
}

/** Adds a table's options to a commander command, in table order, resolving named choices. */
export function addOptions(command: Command, table: OptionTable, named: Readonly<Record<NamedChoices, readonly string[]>>): Command {
  for (const spec of Object.values(table)) {
    const option = new Option(spec.flags, spec.help);
    if (spec.choices !== undefined) option.choices(typeof spec.choices === 'string' ? named[spec.choices] : spec.choices);
    if (spec.default !== undefined) option.default(spec.default);
    if (spec.parse !== undefined) option.argParser(spec.parse);
    if (spec.required === true) option.makeOptionMandatory();
    command.addOption(option);
  }
  return command;
}

/**
 * The request fields of the options that name one, each only when its value is there: not
 * undefined or empty text, and for a repeatable option not empty (none given means "the
 * library's default", never "none of them").
 */
export function requestOf<T extends OptionTable>(table: T, flags: FlagsOf<T>): RequestOf<T> {
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(table)) {
    const value = (flags as Record<string, unknown>)[key];
    if (spec.request === undefined || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    out[spec.request] = value;
  }
  return out as RequestOf<T>;
}
