/** Builds a ChatController over fakes, with webviews whose received messages feed the real webview Store. */
import type { Attention } from "../../../src/host/askAttention";
import { ChatController } from "../../../src/host/chatController";
import { PresetOfferState } from "../../../src/host/presetOffer";
import { RuleStore } from "../../../src/host/rememberedRules";
import { SettingsBridge } from "../../../src/host/settingsBridge";
import { WebviewChannel } from "../../../src/host/webviewChannel";
import type { TaskMessage } from "../../../src/shared/messages";
import type { SettingsLayer } from "../../../src/core/settingsLayers";
import { Store } from "../../../webview-ui/src/state/store";
import { FakeConfigStore, FakeFactory, FakeMemento, FakeWebview, ManualTimer } from "./fakes";

export interface TestWebview {
  readonly fake: FakeWebview;
  readonly channel: WebviewChannel;
  /** The webview's own state, rebuilt from what it received, exactly as the real webview does. */
  store: Store;
  send(message: unknown): Promise<void>;
  /** Simulates a reload: the old document is gone (posts fail) until the new one says `ready`. */
  reload(): Promise<void>;
  texts(): string[];
}

export function makeHost(
  opts: {
    trusted?: boolean;
    withFactory?: boolean;
    managed?: () => readonly SettingsLayer[];
    decidedCall?: (taskId: string, callId: number) => string | undefined;
    /** The first-run preset card, over this globalState (`globalState` in the result). */
    presets?: boolean;
  } = {},
) {
  const config = new FakeConfigStore();
  const memento = new FakeMemento();
  let trusted = opts.trusted ?? true;
  const settings = new SettingsBridge(config, () => trusted);
  const rules = new RuleStore(memento, settings);
  const globalState = new FakeMemento();
  const timer = new ManualTimer();
  const logs: string[] = [];
  const diffs: TaskMessage[] = [];
  const opened: Array<string | undefined> = [];
  const attentions: Attention[] = [];
  const controller = new ChatController({
    settings,
    rules,
    timer,
    openDiff: (m) => void diffs.push(m),
    openSettings: (q) => void opened.push(q),
    addMcpServer: () => void opened.push("mcpServers"),
    log: (level, text) => void logs.push(`${level}: ${text}`),
    attention: (a) => void attentions.push(a),
    // Tests never read this machine's policy file.
    managedLayers: opts.managed ?? (() => []),
    ...(opts.decidedCall ? { decidedCall: opts.decidedCall } : {}),
    ...(opts.presets ? { presets: new PresetOfferState(globalState, settings) } : {}),
  });
  const factory = new FakeFactory();
  if (opts.withFactory !== false) controller.setTaskFactory(factory);

  const webview = (name: string): TestWebview => {
    const fake = new FakeWebview();
    const channel = new WebviewChannel(name, (m) => fake.post(m));
    controller.connect(channel);
    const tw: TestWebview = {
      fake,
      channel,
      store: new Store(() => undefined),
      send: (m) => controller.handleMessage(channel, m),
      async reload() {
        fake.alive = false;
        channel.close();
        await Promise.resolve();
        fake.alive = true;
        fake.clear();
        tw.store = new Store(() => undefined);
      },
      texts: () => tw.store.getState().task?.messages.map((m) => m.text) ?? [],
    };
    // Everything the fake webview receives goes through the real webview store.
    const post = fake.post;
    fake.post = (m) => {
      const r = post(m);
      if (fake.alive) {
        tw.store.receive(structuredClone(m));
        tw.store.flush();
      }
      return r;
    };
    return tw;
  };

  return {
    config,
    memento,
    globalState,
    settings,
    rules,
    timer,
    logs,
    diffs,
    opened,
    attentions,
    controller,
    factory,
    webview,
    setTrusted: (t: boolean) => {
      trusted = t;
    },
  };
}
