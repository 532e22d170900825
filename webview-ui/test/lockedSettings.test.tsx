// @vitest-environment jsdom
import "./support/shims";
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { AutoApproveMenu } from "../src/chat/AutoApproveMenu";
import { isDisabled, settingsView, setup } from "./support/render";

afterEach(cleanup);

describe("settings fixed by the managed policy", () => {
  it("are disabled and say who set them; the others stay editable", () => {
    const s = setup();
    s.view(
      <AutoApproveMenu
        settings={settingsView({ locked: ["autoApprove.all", "autoApprove.action:executeAllCommands"] })}
        open={true}
        onOpenChange={() => undefined}
      />,
    );
    const all = screen.getByRole("checkbox", { name: /Approve all/ });
    const allCommands = screen.getByRole("checkbox", { name: /Run all commands/ });
    const edit = screen.getByRole("checkbox", { name: /Edit files in the workspace/ });
    expect(isDisabled(all)).toBe(true);
    expect(isDisabled(allCommands)).toBe(true);
    expect(isDisabled(edit)).toBe(false);
    expect(screen.getAllByText(/set by your administrator/)).toHaveLength(2);
    fireEvent.click(all);
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  it("a mode ceiling offers only the modes up to it", () => {
    setup().view(
      <AutoApproveMenu settings={settingsView({ modeCeiling: "normal" })} open={true} onOpenChange={() => undefined} />,
    );
    expect(screen.queryByRole("radio", { name: /Auto/ })).toBeNull();
    expect(screen.getByRole("radio", { name: /Plan/ })).toBeTruthy();
    expect(screen.getByText(/not allowed by your administrator/)).toBeTruthy();
  });
});
