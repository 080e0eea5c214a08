// The contrastive view layout: how a view augment hands (anchor, positive) pairs and negatives to a
// contrastive loss in one batch. An augment that makes pairs of the first K of its n = K + N input rows
// writes 2K + N rows:
//     rows [0, K)          anchors    (a view of input row k)
//     rows [K, 2K)         positives  (row K + k is the positive view of anchor k)
//     rows [2K, 2K + N)    negatives  (input rows K .. n − 1)
// and column 0 of T holds each row's role (kViewAnchor, kViewPositive, kViewNegative), so the loss reads K
// from the batch instead of trusting a second copy of it; T's other columns are the augment's to fill (e.g.
// the input's own targets). Anchors and positives carry the label of their input row.
// Writers: std's random-mask and identity-views (Wen & Li 2021 Def. 2.3), representation-theory's
// resample-spurious; readers: std's info-nce, representation-theory's contrastive losses.
#pragma once

#include <featurelab/dataset.hpp>

namespace featurelab {

// A row's role, in column 0 of T.
inline constexpr Scalar kViewAnchor = 0, kViewPositive = 1, kViewNegative = 2;

// Writes the labels (y of the K + N input rows) and the roles of the layout into out, which is already sized
// for 2K + N rows with at least one target column. The rows of X are the augment's.
void write_view_roles(ConstIVecMap y, Index pairs, Dataset& out);

// K, the number of (anchor, positive) pairs of a batch in the layout: K >= 1 anchors, then K positives, then
// N = n − 2K >= 0 negatives, by column 0 of T. 0 when the batch has no targets or its roles are not in that
// order; the caller throws, naming itself and the augment that writes the layout.
Index view_pairs(const Batch& batch);

}  // namespace featurelab
