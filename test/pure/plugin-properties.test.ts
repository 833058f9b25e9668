/** The plugin's secret codec: the protocol's secret wrapper, its removal at any depth, property maps. */
import fc from "fast-check";
import {
  isSecret,
  PropertyMap,
  reveal,
  revealProps,
  sealProps,
  SECRET_SIG,
  SIG_KEY,
  secret,
} from "../../src/plugin/properties";
import { holds, runs } from "../helpers/arbitraries";

const RUNS = runs(20250301, 300);

const json = fc.jsonValue({ maxDepth: 4 });

const propName = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => k !== SIG_KEY);

const propertyMap = fc.dictionary(propName, json, { maxKeys: 6 });

/** A JSON value with secret wrappers anywhere (`wrapped`), the same without them (`plain`). */
type Pair = { wrapped: unknown; plain: unknown; secrets: boolean };
const { pair } = fc.letrec<{ pair: Pair; leaf: Pair; array: Pair; object: Pair; secret: Pair }>((tie) => ({
  pair: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    tie("leaf"),
    tie("array"),
    tie("object"),
    tie("secret"),
  ),
  leaf: fc
    .oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean(), fc.constant(null))
    .map((v) => ({ wrapped: v, plain: v, secrets: false })),
  array: fc.array(tie("pair"), { maxLength: 4 }).map((items) => ({
    wrapped: items.map((i) => i.wrapped),
    plain: items.map((i) => i.plain),
    secrets: items.some((i) => i.secrets),
  })),
  object: fc.dictionary(propName, tie("pair"), { maxKeys: 4 }).map((members) => ({
    wrapped: Object.fromEntries(Object.entries(members).map(([k, v]) => [k, v.wrapped])),
    plain: Object.fromEntries(Object.entries(members).map(([k, v]) => [k, v.plain])),
    secrets: Object.values(members).some((v) => v.secrets),
  })),
  secret: tie("pair").map((inner) => ({
    wrapped: { [SIG_KEY]: SECRET_SIG, value: inner.wrapped },
    plain: inner.plain,
    secrets: true,
  })),
}));

/** Whether `test` holds of `value` or of anything inside it (array items, object members). */
function anywhere(value: unknown, test: (v: unknown) => boolean): boolean {
  if (test(value)) return true;
  return typeof value === "object" && value !== null && Object.values(value).some((v) => anywhere(v, test));
}
const hasWrapper = (value: unknown) =>
  anywhere(value, (v) => typeof v === "object" && v !== null && Object.hasOwn(v, SIG_KEY));
const hasUndefined = (value: unknown) => anywhere(value, (v) => v === undefined);

describe("secret and reveal", () => {
  test("secret wraps as the protocol does, and wrapping twice keeps one wrapper", () => {
    expect(secret("k")).toEqual({
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      value: "k",
    });
    holds(RUNS, json, (x) => {
      expect(isSecret(secret(x))).toBe(true);
      expect(secret(secret(x))).toEqual(secret(x));
    });
  });

  test("reveal removes wrappers at any depth, top level included, and says whether it found one", () => {
    holds(RUNS, pair, ({ wrapped, plain, secrets }) => {
      const revealed = reveal(wrapped);
      expect(revealed.value).toEqual(plain);
      expect(revealed.found).toBe(secrets);
      expect(hasWrapper(revealed.value)).toBe(false);
    });
  });

  test("an object that only looks like a wrapper (another signature) is kept", () => {
    const lookalike = { [SIG_KEY]: "cfe97e6a3e7b4a5c8a1b2a1f3a3a9b5e", value: "x" };
    expect(isSecret(lookalike)).toBe(false);
    expect(reveal(lookalike)).toEqual({ value: lookalike, found: false });
  });
});

describe("sealProps and revealProps", () => {
  test("sealProps then revealProps restores the props and the secret keys present", () => {
    holds(RUNS, propertyMap, fc.array(propName, { maxLength: 6 }), (props, keys) => {
      const sealed = sealProps(props, keys);
      const present = Object.keys(props).filter((k) => keys.includes(k));
      for (const k of Object.keys(props)) expect(isSecret(sealed[k])).toBe(keys.includes(k));
      const { props: revealed, secretKeys } = revealProps(sealed);
      expect(revealed).toEqual(props);
      expect([...secretKeys].sort()).toEqual([...new Set(present)].sort());
    });
  });

  test("revealProps names the top-level properties holding a secret at any depth", () => {
    holds(RUNS, fc.dictionary(propName, pair, { maxKeys: 5 }), (members) => {
      const wire: PropertyMap = Object.fromEntries(Object.entries(members).map(([k, v]) => [k, v.wrapped]));
      const { props, secretKeys } = revealProps(wire);
      expect(props).toEqual(Object.fromEntries(Object.entries(members).map(([k, v]) => [k, v.plain])));
      const expected = Object.keys(members).filter((k) => members[k].secrets);
      expect([...secretKeys].sort()).toEqual(expected.sort());
    });
  });

  test.each([undefined, null, {}])("revealProps of %p is empty", (nothing) => {
    expect(revealProps(nothing)).toEqual({ props: {}, secretKeys: new Set() });
  });

  test("sealProps drops undefined members at any depth, secret or not; undefined array items become null, as in JSON", () => {
    const { value } = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean(), fc.constant(null)),
        fc.array(tie("value"), { maxLength: 3 }),
        fc.dictionary(propName, fc.option(tie("value"), { nil: undefined }), { maxKeys: 4 }),
      ),
    }));
    const props = fc.dictionary(propName, fc.option(value, { nil: undefined }), { maxKeys: 5 });
    holds(RUNS, props, fc.array(propName, { maxLength: 5 }), (props, keys) => {
      const sealed = sealProps(props, keys);
      expect(hasUndefined(sealed)).toBe(false);
      const kept = JSON.parse(JSON.stringify(props));
      expect(revealProps(sealed).props).toEqual(kept);
      expect(Object.keys(sealed).sort()).toEqual(Object.keys(kept).sort());
    });
    expect(sealProps({ list: [1, undefined, { a: undefined, b: 2 }] }, [])).toEqual({
      list: [1, null, { b: 2 }],
    });
  });

  test("a member named __proto__ stays a member, through reveal and seal", () => {
    const props = JSON.parse('{"configuration":{"__proto__":{"archive":true},"mode":"full"}}');
    const revealed = revealProps(props).props as { configuration: Record<string, unknown> };
    expect(Object.keys(revealed.configuration)).toEqual(["__proto__", "mode"]);
    expect(Object.getPrototypeOf(revealed.configuration)).toBe(Object.prototype);
    const sealed = sealProps(revealed, ["configuration"]);
    expect(JSON.stringify(sealed)).toContain('"__proto__":{"archive":true}');
  });
});
