//! The client's side: the answers to one `InputRequiredResult`, checked by kind.

/// A revision's `Answers`; expanded by `input_required_api!`.
#[allow(unused_macros)] // Used by the revisions that have input requests.
macro_rules! client_answers {
    () => {
        /// The client's answers to one [`InputRequiredResult`], each checked against the kind
        /// of the request under its key; [`Answers::finish`] makes the retry's [`RoundTrip`],
        /// with the server's request state echoed unchanged (and none when the server sent
        /// none).
        #[derive(Clone, Debug, PartialEq)]
        pub struct Answers {
            asked: ::alloc::collections::BTreeMap<String, InputKind>,
            state: Option<String>,
            responses: ::alloc::collections::BTreeMap<String, InputResponse>,
        }

        impl Answers {
            /// Answers to `result`, none given yet.
            pub fn new(result: &InputRequiredResult) -> Self {
                let asked = result
                    .input_requests
                    .iter()
                    .flat_map(|requests| requests.iter())
                    .map(|(key, request)| (key.clone(), request.kind()))
                    .collect();
                Answers {
                    asked,
                    state: result.request_state.clone(),
                    responses: ::alloc::collections::BTreeMap::new(),
                }
            }

            /// The keys asked for and not answered yet, with their kinds.
            pub fn pending(&self) -> impl Iterator<Item = (&str, InputKind)> + '_ {
                self.asked
                    .iter()
                    .filter(|(key, _)| !self.responses.contains_key(*key))
                    .map(|(key, kind)| (key.as_str(), *kind))
            }

            /// Gives the response to the request under `key` (replacing an earlier one);
            /// refused when the server asked nothing under `key`, or asked another kind of
            /// request.
            pub fn answer(
                &mut self,
                key: &str,
                response: impl Into<InputResponse>,
            ) -> Result<(), InputResponseError> {
                let response = response.into();
                let Some(&expected) = self.asked.get(key) else {
                    return Err(InputResponseError::NotRequested {
                        key: key.to_owned(),
                    });
                };
                let found = response.kind();
                if found != expected {
                    return Err(InputResponseError::WrongKind {
                        key: key.to_owned(),
                        expected,
                        found,
                    });
                }
                self.responses.insert(key.to_owned(), response);
                Ok(())
            }

            /// The retry's members, once every request is answered (else
            /// [`InputResponseError::Missing`] for the first one that is not). A result that
            /// asked nothing (state only) is retried with no `inputResponses`.
            pub fn finish(self) -> Result<RoundTrip, InputResponseError> {
                if let Some((key, kind)) = self.pending().next() {
                    return Err(InputResponseError::Missing {
                        key: key.to_owned(),
                        expected: kind,
                    });
                }
                Ok(RoundTrip {
                    input_responses: (!self.responses.is_empty())
                        .then_some(InputResponses(self.responses)),
                    request_state: self.state,
                })
            }
        }
    };
}
#[allow(unused_imports)] // Used by the revisions that have input requests.
pub(crate) use client_answers;
