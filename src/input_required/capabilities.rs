//! The client capabilities each input request needs (capabilities travel with every request in
//! the revisions that have input requests, so a server can check before it asks).

/// A revision's `missing_capabilities`; expanded by `input_required_api!`.
#[allow(unused_macros)] // Used by the revisions that have input requests.
macro_rules! capability_rules {
    () => {
        /// The client capabilities an input request needs that `client` did not declare, or
        /// `None` when it declared them all.
        ///
        /// The rules: elicitation in form mode needs `elicitation` with `form` (an
        /// `elicitation` object with neither `form` nor `url` declares form mode only, for
        /// backwards compatibility); URL mode needs `elicitation.url`. Sampling needs
        /// `sampling`, plus `sampling.tools` when the request carries `tools` or `toolChoice`,
        /// and `sampling.context` when it asks for an `includeContext` other than `"none"`.
        /// `roots/list` needs `roots`.
        pub fn missing_capabilities(
            client: &ClientCapabilities,
            request: &InputRequest,
        ) -> Option<ClientCapabilities> {
            let some = || Some($crate::JsonObject::new());
            match request {
                InputRequest::ElicitRequest(request) => {
                    let declared = client.elicitation.as_ref();
                    let url_mode = matches!(request.params, ElicitRequestParams::UrlParams(_));
                    let ok = declared.is_some_and(|e| {
                        if url_mode {
                            e.url.is_some()
                        } else {
                            e.form.is_some() || e.url.is_none()
                        }
                    });
                    (!ok).then(|| ClientCapabilities {
                        elicitation: Some(ClientCapabilitiesElicitation {
                            form: (!url_mode).then($crate::JsonObject::new),
                            url: url_mode.then($crate::JsonObject::new),
                            extra: ::serde_json::Map::new(),
                        }),
                        ..ClientCapabilities::default()
                    })
                }
                InputRequest::CreateMessageRequest(request) => {
                    let params = &request.params;
                    let wants_tools = params.tools.is_some() || params.tool_choice.is_some();
                    let wants_context = matches!(
                        params.include_context,
                        Some(
                            CreateMessageRequestParamsIncludeContext::ThisServer
                                | CreateMessageRequestParamsIncludeContext::AllServers
                        )
                    );
                    let declared = client.sampling.as_ref();
                    let tools = wants_tools && declared.is_none_or(|s| s.tools.is_none());
                    let context = wants_context && declared.is_none_or(|s| s.context.is_none());
                    (declared.is_none() || tools || context).then(|| ClientCapabilities {
                        sampling: Some(ClientCapabilitiesSampling {
                            tools: if tools { some() } else { None },
                            context: if context { some() } else { None },
                            extra: ::serde_json::Map::new(),
                        }),
                        ..ClientCapabilities::default()
                    })
                }
                InputRequest::ListRootsRequest(_) => {
                    client.roots.is_none().then(|| ClientCapabilities {
                        roots: some(),
                        ..ClientCapabilities::default()
                    })
                }
            }
        }
    };
}
#[allow(unused_imports)] // Used by the revisions that have input requests.
pub(crate) use capability_rules;
