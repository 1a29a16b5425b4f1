// What a followed v1 prompt's live line is made of, for its reporter: a status read by REST
// (polling), or what the socket told of it (the executing node, its class, step and text).
export type PromptProgress =
  | {
      kind: 'polled';
      promptId: string;
      /** The status REST read, not terminal yet. */
      status: string;
    }
  | {
      kind: 'live';
      promptId: string;
      /** The socket said the prompt ended; its status is being settled. */
      finishing: boolean;
      /** The REST status last read, while no node is executing. */
      status: string | null;
      /** The node executing now. */
      node: string | null;
      /** Its class, where the submitted workflow names it. */
      classType?: string;
      step?: { value: number; max: number };
      /** The node's latest progress text, as received. */
      text?: string;
    };
