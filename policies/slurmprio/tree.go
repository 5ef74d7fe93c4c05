package slurmprio

import (
	"cmp"
	"math"
	"slices"
	"strconv"
)

// assoc is one association of the tree: the root, an account (a child of
// the root) or a user within an account (a child of the account), with
// the fields of Slurm's slurmdb_assoc_rec_t and its usage record that the
// two fairshare algorithms read.
type assoc struct {
	name     string // the account's or user's number in decimal: siblings are kept in this order
	parent   int32  // −1 for the root
	user     bool
	children []int32 // in name order, users before accounts

	sharesRaw   int64   // RawShares
	levelShares int64   // the RawShares of the association and its siblings
	sharesNorm  float64 // classic: product down the tree; Fair Tree: this level only
	usage       float64 // usage_raw: decayed CPU-seconds of the association and below

	// Classic: usage_efctv, and whether it is current (a user's is
	// recomputed on first use after each calculation, NO_VAL in Slurm).
	efctv      float64
	efctvValid bool
	// classic: the factor 2^(−efctv/sharesNorm), once computed for the
	// current efctv and sharesNorm.
	classic      float64
	classicValid bool

	// Fair Tree: level_fs and the user's factor fs_factor.
	levelFS  float64
	fsFactor float64
}

// tree is the root → account → user association tree (assoc_mgr's
// association list). a[0] is the root.
type tree struct {
	a      []assoc
	byKey  map[assocKey]int32
	users  int // user associations: g_user_assoc_count
	shares map[assocKey]int64
	sorted []int32 // scratch for Fair Tree's sort, by level
}

func newTree(shares map[assocKey]int64) tree {
	return tree{
		a:      []assoc{{name: "root", parent: -1, sharesRaw: 1, levelShares: 1, sharesNorm: 1, efctvValid: true}},
		byKey:  map[assocKey]int32{},
		shares: shares,
	}
}

// userAssoc returns the association of user within account, adding it
// (and the account) as Slurm's association manager would, with the
// RawShares fairshare_shares gives or 1.
func (t *tree) userAssoc(account, user int32, classic bool) int32 {
	if i, ok := t.byKey[assocKey{account, user}]; ok {
		return i
	}
	ak := assocKey{account, noUser}
	acct, ok := t.byKey[ak]
	if !ok {
		acct = t.add(0, ak, strconv.Itoa(int(account)), false)
	}
	u := t.add(acct, assocKey{account, user}, strconv.Itoa(int(user)), true)
	t.users++
	t.normalize(classic)
	return u
}

// add appends an association under parent, keeping the parent's children
// in name order (the order of Slurm's hierarchical association list:
// users first, then by name).
func (t *tree) add(parent int32, k assocKey, name string, user bool) int32 {
	raw, ok := t.shares[k]
	if !ok {
		raw = 1
	}
	i := int32(len(t.a))
	// A new association's usage record is zeroed: usage_efctv 0 (current
	// until the next calculation) and fs_factor 0.
	t.a = append(t.a, assoc{name: name, parent: parent, user: user, sharesRaw: raw, efctvValid: true})
	t.byKey[k] = i
	ch := t.a[parent].children
	at, _ := slices.BinarySearchFunc(ch, i, t.siblingOrder)
	t.a[parent].children = slices.Insert(ch, at, i)
	return i
}

// siblingOrder orders siblings: users before accounts, then by name.
func (t *tree) siblingOrder(x, y int32) int {
	ax, ay := &t.a[x], &t.a[y]
	if ax.user != ay.user {
		if ax.user {
			return -1
		}
		return 1
	}
	return cmp.Compare(ax.name, ay.name)
}

// normalize sets every association's level_shares and shares_norm, as
// assoc_mgr.c does when associations change (_set_children_level_shares,
// assoc_mgr_normalize_assoc_shares): level_shares is the sum of the
// RawShares of an association's siblings and itself; shares_norm is
// RawShares/level_shares on that level for Fair Tree
// (_normalize_assoc_shares_fair_tree), and that ratio multiplied down from
// the root for classic fairshare (_normalize_assoc_shares_traditional).
// O(associations).
func (t *tree) normalize(classic bool) {
	for p := range t.a {
		sum := int64(0)
		for _, c := range t.a[p].children {
			sum += t.a[c].sharesRaw
		}
		for _, c := range t.a[p].children {
			t.a[c].levelShares = sum
		}
	}
	// Parents come before their children in t.a.
	for i := 1; i < len(t.a); i++ {
		a := &t.a[i]
		level := 0.0
		if a.levelShares != 0 {
			level = float64(a.sharesRaw) / float64(a.levelShares)
		}
		if classic && a.parent > 0 {
			level *= t.a[a.parent].sharesNorm
		}
		a.sharesNorm = level
		a.classicValid = false
	}
}

// decay multiplies every association's usage by f (_apply_decay).
func (t *tree) decay(f float64) {
	for i := range t.a {
		t.a[i].usage *= f
	}
}

// charge adds usage to an association and every association above it up
// to the root (_apply_new_usage).
func (t *tree) charge(i int32, usage float64) {
	for ; i >= 0; i = t.a[i].parent {
		t.a[i].usage += usage
	}
}

// usageNorm is set_assoc_usage_norm: the association's share of the
// root's usage, 0 if there is none, at most 1.
func (t *tree) usageNorm(i int32) float64 {
	root := t.a[0].usage
	if root == 0 {
		return 0
	}
	return min(t.a[i].usage/root, 1)
}

// startClassic is the classic calculation's first step in the decay
// thread, _set_children_usage_efctv, done before the period's decay and
// new usage: each account's effective usage becomes its normalised usage
// (its parent is the root), and each user's is marked stale.
func (t *tree) startClassic() {
	for i := 1; i < len(t.a); i++ {
		a := &t.a[i]
		if a.user {
			a.efctvValid = false
			continue
		}
		a.efctv = t.usageNorm(int32(i))
		a.efctvValid = true
	}
}

// classicFactor is a user association's classic fairshare factor,
// 2^(−usage_efctv/shares_norm) (priority_p_calc_fs_factor with
// FairShareDampeningFactor 1), computing a stale effective usage first
// as _get_fairshare_priority does: U_e = U_n + (U_e,account − U_n) ·
// RawShares/level_shares (_set_usage_efctv), with the account's effective
// usage from the start of the last calculation.
func (t *tree) classicFactor(u int32) float64 {
	a := &t.a[u]
	if !a.efctvValid {
		norm := t.usageNorm(u)
		parent := t.a[a.parent].efctv
		if a.levelShares == 0 {
			a.efctv = parent
		} else {
			a.efctv = norm + float64((parent-norm)*(float64(a.sharesRaw)/float64(a.levelShares)))
		}
		a.efctvValid = true
		a.classicValid = false
	}
	if !a.classicValid {
		a.classic = 0
		if a.sharesNorm > 0 {
			a.classic = math.Pow(2, -(a.efctv / a.sharesNorm))
		}
		a.classicValid = true
	}
	return a.classic
}

// rankFairTree sets every user association's Fair Tree factor
// (fair_tree.c, _apply_priority_fs and _calc_tree_fs): O(associations ×
// log siblings).
func (t *tree) rankFairTree() {
	rank, rnt := uint32(t.users), uint32(t.users)
	t.sorted = t.sorted[:0]
	t.levelRank(0, &rank, &rnt, false)
}

// levelRank ranks the children of association p and, depth first, the
// associations below them. Each child's level fairshare is LF = S/U
// (_calc_assoc_fs): S its shares_norm, U its usage over its parent's (0
// if the parent has none), LF 0 if S is 0 and +Inf if only U is. Children
// are sorted by LF, highest first, users before accounts on equal LF, ties
// otherwise in sibling order (glibc's qsort is a stable merge sort). A
// user gets the rank rnt, counted down from the number of user
// associations, unless its LF equals the previous sibling's (or it is the
// first child of a tied account), when it shares the previous rank. Its
// factor is rank/users.
//
// Slurm 22.05's _count_tied_accounts never counts a tied account (it
// stops at the first account it meets), so tied accounts are not merged,
// whatever the Fair Tree documentation says: each is ranked in turn, and
// the second one's first user shares the rank of the first one's last.
func (t *tree) levelRank(p int32, rank, rnt *uint32, accountTied bool) {
	parentUsage := t.a[p].usage
	base := len(t.sorted)
	for _, c := range t.a[p].children {
		a := &t.a[c]
		u := 0.0
		if parentUsage != 0 {
			u = a.usage / parentUsage
		}
		switch {
		case a.sharesNorm == 0:
			a.levelFS = 0
		default:
			a.levelFS = a.sharesNorm / u // +Inf when u is 0
		}
		t.sorted = append(t.sorted, c)
	}
	level := t.sorted[base:]
	slices.SortStableFunc(level, func(x, y int32) int {
		ax, ay := &t.a[x], &t.a[y]
		if ax.levelFS != ay.levelFS {
			return -cmp.Compare(ax.levelFS, ay.levelFS)
		}
		switch {
		case ax.user == ay.user:
			return 0
		case ax.user:
			return -1
		}
		return 1
	})
	prev := math.NaN()
	for k := base; k < base+len(level); k++ {
		c := t.sorted[k] // t.sorted may grow below; index afresh
		a := &t.a[c]
		tied := prev == a.levelFS
		if k == base && accountTied {
			tied = true
		}
		if a.user {
			if !tied {
				*rank = *rnt
			}
			a.fsFactor = float64(*rank) / float64(t.users)
			*rnt--
		} else {
			t.levelRank(c, rank, rnt, tied)
		}
		prev = t.a[c].levelFS
	}
	t.sorted = t.sorted[:base]
}
