import { createContext, useContext } from "react";
import type { Bridge } from "./bridge";

export const BridgeContext = createContext<Bridge | null>(null);

export function useBridge(): Bridge {
  const b = useContext(BridgeContext);
  if (!b) throw new Error("BridgeContext missing");
  return b;
}
