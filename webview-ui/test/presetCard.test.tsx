// @vitest-environment jsdom
import "./support/shims";
import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { PresetCard } from "../src/chat/PresetCard";
import { setup } from "./support/render";

afterEach(cleanup);

const card = () => screen.getByRole("region", { name: "How much may the agent do without asking?" });

describe("first-run preset card", () => {
  it("lists the three presets with one sentence each, the suggestion preselected", () => {
    setup().view(<PresetCard offer={{ suggested: "Sandboxed autonomy", sandboxWorks: true }} />);
    const radios = within(card()).getAllByRole("radio");
    expect(radios.map((r) => (r as HTMLInputElement).value)).toEqual([
      "Ask before changes",
      "Sandboxed autonomy",
      "Read-only",
    ]);
    expect(radios.map((r) => (r as HTMLInputElement).checked)).toEqual([false, true, false]);
    const described = within(card()).getByRole("radio", { name: /Sandboxed autonomy/ });
    const meaning = document.getElementById(described.getAttribute("aria-describedby") ?? "");
    expect(meaning?.textContent).toMatch(/inside the OS sandbox after a checkpoint/);
  });

  it("sends the preset chosen; Decide later sends null", async () => {
    const s = setup();
    s.view(<PresetCard offer={{ suggested: "Sandboxed autonomy", sandboxWorks: true }} />);
    fireEvent.click(within(card()).getByRole("radio", { name: /Read-only/ }));
    fireEvent.click(screen.getByText("Use this preset"));
    expect(s.intents()).toEqual([{ type: "choosePreset", preset: "Read-only" }]);
    await s.reply(false, "Your administrator does not allow plan mode (managed policy).");
    expect(screen.getByRole("alert").textContent).toMatch(/administrator/);
    fireEvent.click(screen.getByText("Decide later"));
    expect(s.intents().at(-1)).toEqual({ type: "choosePreset", preset: null });
  });

  it("without a sandbox: Ask before changes is suggested and Sandboxed autonomy says its commands will ask", () => {
    setup().view(
      <PresetCard
        offer={{ suggested: "Ask before changes", sandboxWorks: false, sandboxReason: "bwrap is missing" }}
      />,
    );
    expect((within(card()).getByRole("radio", { name: /Ask before changes/ }) as HTMLInputElement).checked).toBe(true);
    expect(card().textContent).toContain("No OS sandbox works here (bwrap is missing), so its commands will ask.");
  });
});
