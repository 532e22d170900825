/**
 * (b) Toolgate's settings appear in the Settings editor with the defaults a new user gets: searching
 * "toolgate" lists every setting of the manifest under a "Toolgate" group, and each control shows its
 * default (checkboxes, numbers, the mode dropdown, the action checkboxes, empty lists).
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { Scenario } from "../harness/scenario";
import type { Manifest } from "../harness/vsix";
import { closeSettingsUi, openSettingsUi, searchSettings } from "../harness/workbench";

type Prop = NonNullable<NonNullable<NonNullable<Manifest["contributes"]>["configuration"]>["properties"]>[string] & {
  enum?: unknown[];
  properties?: Record<string, unknown>;
};

async function checkDefault(page: Page, key: string, prop: Prop): Promise<string> {
  await searchSettings(page, `@id:${key}`);
  const item = page.locator(".settings-editor-tree .setting-item");
  await item.first().waitFor({ timeout: 10_000 });
  assert.equal(await item.count(), 1, `@id:${key} should find exactly one setting`);
  const row = item.first();
  const type = Array.isArray(prop.type) ? prop.type[0] : prop.type;
  if ((prop as { anyOf?: unknown }).anyOf !== undefined) {
    // A value of one of several shapes (`"off"` or a list of hosts) is edited in settings.json.
    await row.getByRole("button", { name: `Edit in settings.json: ${key}` }).waitFor();
    return `${key}: "Edit in settings.json"`;
  }
  if (prop.enum) {
    const value = await row.locator(`select[aria-label="${key}"]`).inputValue();
    assert.equal(value, prop.default, `${key} dropdown shows ${value}`);
    return `${key} = ${value}`;
  }
  if (type === "boolean") {
    const checked = await row.locator(`.setting-value-checkbox[aria-label="${key}"]`).getAttribute("aria-checked");
    assert.equal(checked, String(prop.default), `${key} checkbox is ${checked}`);
    return `${key} = ${checked}`;
  }
  if (type === "number" || type === "string") {
    const value = await row.locator(`input[aria-label="${key}"]`).inputValue();
    assert.equal(value, String(prop.default), `${key} input shows "${value}"`);
    return `${key} = ${JSON.stringify(value)}`;
  }
  if (type === "array") {
    assert.deepEqual(prop.default, [], `${key}: only empty default lists are checked here`);
    assert.equal(await row.locator(".setting-list-widget .setting-list-row").count(), 0, `${key} list should be empty`);
    await row.getByRole("button", { name: "Add Item" }).waitFor();
    return `${key} = [] (with Add Item)`;
  }
  if (type === "object" && prop.properties && prop.default && typeof prop.default === "object") {
    const seen: string[] = [];
    for (const [sub, want] of Object.entries(prop.default as Record<string, unknown>)) {
      const box = row.locator(`.setting-value-checkbox[aria-label^="The property \`${sub}\` is set to"]`);
      assert.equal(await box.count(), 1, `${key}.${sub} checkbox missing`);
      assert.equal(await box.getAttribute("aria-checked"), String(want), `${key}.${sub} should be ${String(want)}`);
      seen.push(`${sub}=${String(want)}`);
    }
    return `${key} = {${seen.join(", ")}}`;
  }
  if (type === "object") {
    await row.getByRole("button", { name: `Edit in settings.json: ${key}` }).waitFor();
    return `${key}: "Edit in settings.json"`;
  }
  throw new Error(`${key}: no check for type ${String(type)}`);
}

export const settingsUi: Scenario = {
  id: "b",
  title: "the Toolgate settings appear in the Settings editor with their defaults",
  needs: ["vsix"],
  plan: [
    "search 'toolgate': a 'Toolgate' group with every manifest setting",
    "each setting's control shows its default",
    "screenshots in light and dark",
  ],
  run: async (ctx) => {
    const props = (ctx.info.manifest?.contributes?.configuration?.properties ?? {}) as Record<string, Prop>;
    const keys = Object.keys(props);
    assert.ok(keys.length > 0, "the manifest contributes no settings");
    const session = await ctx.openSession();
    const page = session.page;

    await openSettingsUi(page, "toolgate");
    const group = page.locator(".settings-editor .settings-toc-container .monaco-list-row", { hasText: /^Toolgate/ });
    await group.first().waitFor({ timeout: 10_000 });
    const groupText = (await group.first().innerText()).replace(/\s+/g, " ");
    assert.match(
      groupText,
      new RegExp(`^Toolgate ?\\(${keys.length}\\)$`),
      `the Toolgate group should count ${keys.length} settings`,
    );
    ctx.log(`Settings editor: "${groupText}"`);
    for (const key of keys) ctx.log(await checkDefault(page, key, props[key]!));

    for (const theme of ["light", "dark"] as const) {
      await closeSettingsUi(page);
      await session.setTheme(theme);
      await openSettingsUi(page, "toolgate");
      ctx.log(`screenshot: ${await session.screenshot(`settings-${theme}`)}`);
    }
  },
};
