//! Work spread over threads: each thread takes the next item in turn, and the results come
//! back in item order, so they do not depend on the thread count.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// `work(state, item)` for every item on `threads` threads, each with its own `state` made by
/// `init` (an engine, say). After each item, `after(results)` sees the results so far (a
/// `None` for items not done yet), for progress. Returns the results in item order.
pub fn map<T: Sync, S, R: Clone + Send>(
    items: &[T],
    threads: usize,
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, &T) -> R + Sync,
    after: impl Fn(&[Option<R>]) + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new(vec![None; items.len()]);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, items.len().max(1)) {
            scope.spawn(|| {
                let mut state = init();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let r = work(&mut state, item);
                    let Ok(mut all) = results.lock() else { break };
                    all[i] = Some(r);
                    after(&all);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect()
}
