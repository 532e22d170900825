/** `toolgate run`'s line in `toolgate --help`, known without loading the agent runtime. */
export const RUN_SUMMARY = "run one agent task headless (-p TEXT); what would ask is refused";
