import * as pulumi from "@pulumi/pulumi";
import { CONFIG_NAMESPACE, ConfigReader } from "../settings";

/**
 * The functions' config reader: the program's stack configuration, `blockchain:*` keys only;
 * undefined outside a Pulumi program (e.g. a script using the functions directly).
 */
export const readStackConfig: ConfigReader = (fullKey) => {
  const [namespace, key] = fullKey.split(":");
  if (namespace !== CONFIG_NAMESPACE) return undefined;
  try {
    return new pulumi.Config(namespace).get(key);
  } catch {
    return undefined;
  }
};
